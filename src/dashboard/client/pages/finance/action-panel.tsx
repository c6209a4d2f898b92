// The panel an action opens under a record's buttons (Record payment, Issue
// credit note, Refund, Allocate): a heading that takes focus when it opens, so
// keyboard and screen reader users land in it; the form; and its Save and
// Cancel. Each form keeps its fields and what it sends; one that previews what
// it would do is told of its values when it opens and as they are edited.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef } from 'preact/hooks';

export function ActionPanel({
  title,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  onEdit,
  children,
}: {
  title: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (form: HTMLFormElement) => void;
  onCancel: () => void;
  /** Called with the form when it opens and after each edit of its fields. */
  onEdit?: (form: HTMLFormElement) => void;
  children: ComponentChildren;
}) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // Focused in the render's commit, not after the paint: a user who types at once keeps the focus.
  useLayoutEffect(() => heading.current?.focus(), []);
  // Once, with the values it opens with (the defaults).
  useEffect(() => void (form.current && onEdit?.(form.current)), []);
  return (
    <section class="panel action-panel" aria-labelledby={titleId}>
      <h2 id={titleId} tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <form
        class="stacked"
        noValidate
        ref={form}
        onInput={(event) => onEdit?.(event.currentTarget)}
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
