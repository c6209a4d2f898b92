// The dashboard's shared pieces: links, a page's header, loading and error
// states, paging, secrets shown once. Data loading (query.ts), forms (forms.tsx)
// and the formats of values (formats.tsx) have modules of their own, exported
// here too so a page imports its pieces from one place.
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from './api.js';
import type { Query } from './query.js';
import { BASE, navigate } from './route.js';

export * from './formats.js';
export * from './forms.js';
export * from './query.js';

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
  // Focused in the render's commit, not after the paint: a user who types at once keeps the focus.
  useLayoutEffect(() => heading.current?.focus(), []);
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
