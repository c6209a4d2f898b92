// Forms that show the server's message beside the field it names: a
// submission's state, focus on the first problem, labelled fields and selects,
// and a form's values.
import type { InputHTMLAttributes, PartialInputHTMLAttributes, PartialSelectHTMLAttributes } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from './api.js';
import { asApiError } from './query.js';

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

/** What a field's input is described by: its hint and its error (FieldNotes' ids), or nothing. */
export const describedBy = (id: string, hint?: string, error?: string) =>
  [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

/** A field's hint and, when the server refused it, the message beside it, as describedBy names them. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
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
    </>
  );
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
  const described = describedBy(id, hint, error);
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
      <FieldNotes id={id} hint={hint} error={error} />
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
        aria-describedby={describedBy(id, undefined, error)}
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
      <FieldNotes id={id} error={error} />
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
