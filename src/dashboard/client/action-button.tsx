// A lifecycle action's button (`Approve`, `Process`, `Clock out`): named by the
// action; when the record's state (or the viewer's scopes) does not allow it,
// still focusable but aria-disabled, with the reason as its description.
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export function ActionButton({
  children,
  onClick,
  disabledReason,
  busy = false,
  confirm,
  class: className,
  hideReason = false,
}: {
  children: ComponentChildren;
  onClick: () => void;
  /** Why the action is not available now; undefined: it is. */
  disabledReason?: string;
  busy?: boolean;
  /** A question asked first (the browser's own confirmation) for what cannot be undone. */
  confirm?: string;
  class?: string;
  /** Keep the reason for assistive technology only (the page says it once elsewhere). */
  hideReason?: boolean;
}) {
  const reasonId = useId();
  const disabled = !!disabledReason || busy;
  return (
    <span class="action">
      <button
        type="button"
        class={className}
        aria-disabled={disabled ? 'true' : undefined}
        aria-describedby={disabledReason ? reasonId : undefined}
        onClick={() => {
          if (disabled) return;
          if (confirm && !window.confirm(confirm)) return;
          onClick();
        }}
      >
        {children}
      </button>
      {disabledReason && (
        <span id={reasonId} class={hideReason ? 'visually-hidden' : 'action-reason'}>
          {disabledReason}
        </span>
      )}
    </span>
  );
}
