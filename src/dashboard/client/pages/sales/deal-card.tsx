// A deal on the board: its title (a link to the deal), contact and amount; a
// card to drag, or to focus and move with ← and →, and a "Move" button that
// lists the other stages (for touch screens and anyone who prefers a button).
import { useRef, useState } from 'preact/hooks';
import { navigate } from '../../route.js';
import { formatMoney, humanize, Link } from '../../ui.js';
import { contactLabel, STAGES, type BoardDeal, type Stage } from './board-data.js';

export const dealPath = (id: string) => `/crm/deals/${id}`;

export function DealCard({
  deal,
  canMove,
  onMove,
  onDragStart,
  onDragEnd,
}: {
  deal: BoardDeal;
  canMove: boolean;
  onMove: (to: Stage) => void;
  onDragStart: () => void;
  onDragEnd: () => void;
}) {
  const id = `deal-${deal.id}`;
  const onKeyDown = (event: KeyboardEvent) => {
    // Keys pressed on the card itself, not on its Move button or options.
    if (event.target !== event.currentTarget) return;
    const card = event.currentTarget as HTMLElement;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (step && canMove) {
      event.preventDefault();
      const to = STAGES[STAGES.indexOf(deal.stage) + step];
      if (to) onMove(to);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const sibling = event.key === 'ArrowDown' ? card.nextElementSibling : card.previousElementSibling;
      (sibling as HTMLElement | null)?.focus();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      navigate(dealPath(deal.id));
    }
  };
  return (
    <li
      class="deal-card"
      tabIndex={0}
      data-deal-id={deal.id}
      draggable={canMove}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-contact ${id}-amount board-keys`}
      onKeyDown={onKeyDown}
      onDragStart={(event) => {
        event.dataTransfer?.setData('text/plain', deal.id);
        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
        onDragStart();
      }}
      onDragEnd={onDragEnd}
    >
      {/* Out of the tab order: Enter on the card opens it; one tab stop per card. */}
      <Link id={`${id}-title`} class="deal-title" href={dealPath(deal.id)} tabIndex={-1} draggable={false}>
        {deal.title}
      </Link>
      <span id={`${id}-contact`} class="deal-contact">
        {contactLabel(deal.contact) ?? 'No contact'}
      </span>
      <span id={`${id}-amount`} class="deal-amount">
        {formatMoney(deal.amount, deal.currency)}
      </span>
      {canMove && <MoveMenu deal={deal} onMove={onMove} />}
    </li>
  );
}

/** A disclosure of the other stages, each a button. Escape or leaving it closes it. */
function MoveMenu({ deal, onMove }: { deal: BoardDeal; onMove: (to: Stage) => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const listId = `deal-${deal.id}-stages`;
  return (
    <div
      class="move-menu"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }}
      onFocusOut={(event) => {
        const next = event.relatedTarget as Node | null;
        if (next && !event.currentTarget.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        class="secondary small"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={() => setOpen(!open)}
      >
        Move<span class="visually-hidden"> {deal.title}</span>
      </button>
      {open && (
        <ul id={listId} class="move-options" aria-label={`Move ${deal.title} to`}>
          <li class="move-options-title" aria-hidden="true">
            Move to
          </li>
          {STAGES.filter((stage) => stage !== deal.stage).map((stage) => (
            <li key={stage}>
              <button
                type="button"
                class="secondary small"
                onClick={() => {
                  setOpen(false);
                  onMove(stage);
                }}
              >
                <span class="visually-hidden">Move to </span>
                {humanize(stage)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
