// An action named in words (`Open`, `Void`, `Record payment`): when the record's
// state does not allow it, the button stays focusable but aria-disabled, with
// the reason as its description (and shown beside it), rather than vanishing.
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export function ActionButton({
  children,
  reason,
  onClick,
  class: className,
  pressed,
}: {
  children: ComponentChildren;
  /** Why it cannot be done now; undefined: it can. */
  reason?: string;
  onClick: () => void;
  class?: string;
  /** For a button that shows a form: whether the form is shown. */
  pressed?: boolean;
}) {
  const id = useId();
  return (
    <span class="action">
      <button
        type="button"
        class={className}
        aria-disabled={reason ? 'true' : undefined}
        aria-describedby={reason ? id : undefined}
        aria-expanded={pressed}
        onClick={() => !reason && onClick()}
      >
        {children}
      </button>
      {reason && (
        <span class="action-reason" id={id}>
          {reason}
        </span>
      )}
    </span>
  );
}
