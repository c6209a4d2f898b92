// The dashboard's shared pieces: links, data loading, forms that show the
// server's message beside the field it names, paging, secrets shown once.
import type {
  AnchorHTMLAttributes,
  ComponentChildren,
  InputHTMLAttributes,
  PartialInputHTMLAttributes,
  PartialSelectHTMLAttributes,
} from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, graphql } from './api.js';
import { takeFirstAnswer } from './first-answer.js';
import { BASE, navigate } from './route.js';

/** While `open`, Escape calls `close` (a menu, a popup): the keyboard's way out. */
export function useEscapeCloses(open: boolean, close: () => void): void {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) latest.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
}

/** A link to a dashboard path that moves without reloading (a new tab still works). */
export function Link({ href, children, ...rest }: { href: string } & AnchorHTMLAttributes) {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={BASE + href} onClick={onClick}>
      {children}
    </a>
  );
}

export interface Query<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  reload(): void;
  /**
   * Asks again without saying so (no busy state, the data shown meanwhile): for
   * polling, so that the page neither flickers nor announces every round.
   */
  refresh(): void;
}

/** Runs a GraphQL query now and whenever `variables` change (compared as JSON). */
export function useQuery<T>(query: string, variables: Record<string, unknown> = {}): Query<T> {
  const key = JSON.stringify(variables);
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>(() => {
    // A full load of a list: the answer may have come with the page (first-answer.ts).
    const data = takeFirstAnswer<T>(query, key);
    return data === undefined ? { loading: true } : { data, loading: false };
  });
  const answered = useRef(!state.loading);
  const [generation, setGeneration] = useState({ n: 0, quiet: false });
  // A layout effect: the request starts as the page is put in the document, not after
  // the browser's next frame (a passive effect's wait), which a full load would add to.
  useLayoutEffect(() => {
    if (answered.current) {
      answered.current = false;
      return;
    }
    let current = true;
    // Already loading (the first request): the same state, so no second render for nothing.
    if (!generation.quiet) {
      setState((previous) => (previous.loading && !previous.error ? previous : { data: previous.data, loading: true }));
    }
    graphql<T>(query, JSON.parse(key) as Record<string, unknown>).then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) =>
        current && setState((previous) => ({ data: previous.data, error: asApiError(error), loading: false })),
    );
    return () => void (current = false);
  }, [query, key, generation]);
  const reload = useCallback(() => setGeneration(({ n }) => ({ n: n + 1, quiet: false })), []);
  const refresh = useCallback(() => setGeneration(({ n }) => ({ n: n + 1, quiet: true })), []);
  return { ...state, reload, refresh };
}

/**
 * Calls `tick` every `intervalMs` while `active` and the browser tab is shown
 * (a hidden tab asks nothing; shown again, it asks at once).
 */
export function usePolling(tick: () => void, intervalMs: number, active = true): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, intervalMs);
    const onShown = () => document.visibilityState === 'visible' && latest.current();
    document.addEventListener('visibilitychange', onShown);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onShown);
    };
  }, [intervalMs, active]);
}

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(String(error), 'INTERNAL_ERROR');
}

/** Sets the browser tab's title to name the page (`Invoices · Dashboard`). */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Dashboard`;
  }, [title]);
}

/** A page's title (also the tab's), with its actions on the right. */
export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  usePageTitle(title);
  return (
    <header class="page-header">
      <h1 tabIndex={-1}>{title}</h1>
      {children && <div class="actions">{children}</div>}
    </header>
  );
}

/** Shown while data loads: takes the room a short table would, so nothing jumps when it arrives. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function ErrorMessage({ error }: { error?: ApiError | string }) {
  if (!error) return null;
  // Focusable by script: a refused form moves focus here when no field shows the message.
  return (
    <p class="error" role="alert" tabIndex={-1}>
      {typeof error === 'string' ? error : error.message}
    </p>
  );
}

/** Loading, its error, or the content once the data is there (kept while it reloads). */
export function Loaded<T>({ query, children }: { query: Query<T>; children: (data: T) => ComponentChildren }) {
  if (query.data !== undefined) {
    return (
      <div aria-busy={query.loading}>
        {query.error && <ErrorMessage error={query.error} />}
        {children(query.data)}
      </div>
    );
  }
  if (query.error) return <ErrorMessage error={query.error} />;
  return <Loading />;
}

/**
 * A form's submission: runs the action, keeps its error, and gives the
 * message for a field when the server named that field. Once refused, focus
 * goes to the first invalid field of the form (else to the message), so a
 * keyboard or screen reader user lands on what to fix, not on the page's body.
 */
export function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const origin = useRef<Element | null>(null);
  useEffect(() => {
    if (error) focusFirstProblem(origin.current);
  }, [error]);
  const submit = async (...args: A) => {
    origin.current =
      args.find((arg): arg is HTMLFormElement => arg instanceof HTMLFormElement) ??
      document.activeElement?.closest('form') ??
      null;
    setBusy(true);
    setError(undefined);
    try {
      await action(...args);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  /** The message for a field, or for one of its items (`redirectUris.1` is shown by `redirectUris`). */
  const fieldError = (name: string) => (error && isOf(error.field, name) ? error.message : undefined);
  /** The error when no field of the form shows it. */
  const formError = (fields: string[]) =>
    error && !fields.some((field) => isOf(error.field, field)) ? error : undefined;
  return { submit, error, busy, fieldError, formError };
}

/** Whether the server's field names this field or one of its items. */
const isOf = (given: string | undefined, field: string) =>
  given !== undefined && (given === field || given.startsWith(`${field}.`));

const FOCUSABLE = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * Focuses the first field shown invalid within `form` (a Field, a Select, a group
 * of checkboxes marked `invalid`), else the error message there or on the page.
 */
export function focusFirstProblem(form: Element | null): void {
  const scope = form?.isConnected ? form : document.getElementById('main');
  if (!scope) return;
  const invalid = scope.querySelector<HTMLElement>('[aria-invalid="true"], .invalid');
  const field = invalid?.matches(FOCUSABLE) ? invalid : invalid?.querySelector<HTMLElement>(FOCUSABLE);
  const message =
    scope.querySelector<HTMLElement>('.error[role="alert"]') ??
    document.getElementById('main')?.querySelector<HTMLElement>('.error[role="alert"]');
  (field ?? message)?.focus();
}

type FieldProps = Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'label' | 'name' | 'role'> & {
  label: string;
  name: string;
  error?: string;
  hint?: string;
};

/** A labelled input with its hint and, when the server refused it, the message beside it. */
export function Field({ label, name, error, hint, ...input }: FieldProps) {
  const id = `field-${name}`;
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        // Preact types each input type apart; these props are any input's.
        {...(input as InputHTMLAttributes)}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

type SelectProps = Omit<PartialSelectHTMLAttributes<HTMLSelectElement>, 'label' | 'name' | 'role'> & {
  label: string;
  name: string;
  options: readonly (string | { value: string; label: string })[];
  error?: string;
};

export function Select({ label, name, options, error, ...select }: SelectProps) {
  const id = `field-${name}`;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <select
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...select}
      >
        {options.map((option) =>
          typeof option === 'string' ? (
            <option value={option}>{option}</option>
          ) : (
            <option value={option.value}>{option.label}</option>
          ),
        )}
      </select>
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The values of a form's named fields (empty strings left out). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, name) => {
    if (typeof value === 'string' && value.trim() !== '') values[name] = value.trim();
  });
  return values;
}

/** Every checked value of a group of checkboxes. */
export function checkedValues(form: HTMLFormElement, name: string): string[] {
  return new FormData(form).getAll(name).map(String);
}

export function Pager({
  page,
  limit,
  total,
  onPage,
}: {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages} · {total} in all
      </span>
      <button type="button" class="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** Copies a value, saying so for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" class="secondary small" onClick={() => void copy()} aria-label={`Copy ${label}`}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** Secrets the server shows once: each value with a copy button, and a warning that says so. */
export function ShownOnce({
  title,
  values,
  onDone,
}: {
  title: string;
  values: { label: string; value: string }[];
  onDone: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="shown-once" aria-labelledby="shown-once-title">
      <h2 id="shown-once-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <p class="warning" role="alert">
        Copy these now. They are shown only once: once you leave this page nobody, us included, can show them again.
      </p>
      {values.map(({ label, value }) => (
        <div class="secret" key={label}>
          <span class="secret-label">{label}</span>
          <code data-secret={label}>{value}</code>
          <CopyButton value={value} label={label} />
        </div>
      ))}
      <button type="button" onClick={onDone}>
        I have copied them
      </button>
    </section>
  );
}

/** A button that asks first (the browser's own confirmation: keyboard and screen reader friendly). */
export function ConfirmButton({
  question,
  onConfirm,
  children,
  class: className = 'danger',
}: {
  question: string;
  onConfirm: () => void | Promise<void>;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <button type="button" class={className} onClick={() => window.confirm(question) && void onConfirm()}>
      {children}
    </button>
  );
}

/** Names shown as code tags (scopes, event types), in their order. */
export function CodeTags({ values }: { values: readonly string[] }) {
  return (
    <>
      {values.map((value) => (
        <code key={value} class="tag">
          {value}
        </code>
      ))}
    </>
  );
}

// One format for every date and time the dashboard shows: "28 Nov 2026" and
// "28 Nov 2026, 15:11:04" (seconds: order matters in logs and histories).
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** An instant (ISO 8601 or Unix seconds) in the viewer's time zone, with seconds. */
export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return dateTimeFormat.format(new Date(typeof value === 'number' ? value * 1000 : value));
}

/** A calendar date (`2026-11-28`) as it is written, whatever the viewer's time zone. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/** A wire value (`in_progress`, `won`) as words: "In progress", "Won". */
export function humanize(value: string): string {
  const words = value
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How a state reads at a glance; a state not named here is neutral. */
const TONES: Record<string, 'ok' | 'warn' | 'bad' | 'info'> = {
  active: 'ok',
  approved: 'ok',
  paid: 'ok',
  won: 'ok',
  processed: 'ok',
  reimbursed: 'ok',
  issued: 'ok',
  succeeded: 'ok',
  delivered: 'ok',
  completed: 'ok',
  open: 'info',
  pending: 'warn',
  submitted: 'warn',
  draft: 'info',
  retrying: 'warn',
  overdue: 'bad',
  rejected: 'bad',
  lost: 'bad',
  void: 'bad',
  failed: 'bad',
  terminated: 'bad',
  cancelled: 'bad',
  revoked: 'bad',
  expired: 'bad',
};

/** A state as a labelled badge: words, not the wire value, and a tone that is never the only cue. */
export function StatusBadge({ value, label }: { value: string | null | undefined; label?: string }) {
  if (!value) return <>—</>;
  return <span class={`badge badge-${TONES[value] ?? 'neutral'}`}>{label ?? humanize(value)}</span>;
}

// One formatter per currency: making one costs far more than using it, and a
// list of 50 shows 100 amounts or more.
const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number } | null>();

function moneyFormat(currency: string) {
  let entry = moneyFormats.get(currency);
  if (entry === undefined) {
    try {
      const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
      entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    } catch {
      entry = null; // a code Intl refuses: shown as it is
    }
    moneyFormats.set(currency, entry);
  }
  return entry;
}

/** An amount in minor units, in its currency. */
export function formatMoney(amount: number, currency: string): string {
  const entry = moneyFormat(currency);
  return entry ? entry.format.format(amount / 10 ** entry.digits) : `${amount} ${currency}`;
}
