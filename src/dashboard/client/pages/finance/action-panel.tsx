// The panel an action opens under a record's buttons (Record payment, Issue
// credit note, Refund, Allocate): a heading that takes focus when it opens, so
// keyboard and screen reader users land in it; the form; and its Save and
// Cancel. Each form keeps its fields and what it sends.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

export function ActionPanel({
  title,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  children,
}: {
  title: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (form: HTMLFormElement) => void;
  onCancel: () => void;
  children: ComponentChildren;
}) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="panel action-panel" aria-labelledby={titleId}>
      <h2 id={titleId} tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <form
        class="stacked"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(event.currentTarget);
        }}
      >
        {children}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {submitLabel}
          </button>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
