// The pipeline board (/crm/pipeline): a column per stage in the lifecycle's
// order, each with its deal count and sums per currency (all its deals, as the
// server sums them), its newest-changed deals as cards and "Show more" for the
// rest. Cards move by drag and drop, by keyboard (← →) or by their Move button;
// every move is an updateDeal, and a refused one goes back with the API's reason.
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { can, type PageProps } from '../../section.js';
import { ErrorMessage, Link, Loading, PageHeader, formatMoney, humanize } from '../../ui.js';
import { STAGES, type Column, type Stage } from './board-data.js';
import { DealCard } from './deal-card.js';
import { useBoard } from './use-board.js';
import './board.css';

export function PipelineBoardPage({ viewer }: PageProps) {
  const { board, loadError, status, alert, loadingMore, move, more } = useBoard();
  const canMove = can(viewer, 'crm:write');
  const [dragging, setDragging] = useState<string>();
  const [over, setOver] = useState<Stage>();
  // The card moved by keyboard or its Move button: focus follows it to its new column
  // (and back, when refused), unless the person has gone elsewhere meanwhile.
  const follow = useRef<string | undefined>(undefined);
  useEffect(() => {
    const id = follow.current;
    if (!id || (document.activeElement && document.activeElement !== document.body)) return;
    document.querySelector<HTMLElement>(`[data-deal-id="${id}"]`)?.focus();
  }, [board]);

  const moveFocused = (id: string, to: Stage) => {
    follow.current = id;
    void move(id, to);
  };

  return (
    <>
      <PageHeader title="Pipeline">
        {canMove && (
          <Link class="button" href="/crm/deals/new">
            New deal
          </Link>
        )}
      </PageHeader>
      <p id="board-keys" class="hint board-keys">
        {canMove
          ? 'Drag a card to another stage, or focus it and press ← or → to move it one stage (or use Move). ↑ ↓ go through a column, Enter opens a deal. Won and lost deals are closed: they stay where they are.'
          : 'Enter opens a deal. Moving deals needs the crm:write scope.'}
      </p>
      <p class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {alert && (
        <p class="error" role="alert">
          {alert}
        </p>
      )}
      {loadError && <ErrorMessage error={loadError} />}
      {!board && !loadError && <Loading />}
      {board && (
        <div
          class="board"
          onFocusIn={(event) => {
            const target = event.target as HTMLElement;
            if (target.dataset.dealId !== follow.current) follow.current = undefined;
          }}
        >
          {STAGES.map((stage) => (
            <BoardColumn
              key={stage}
              column={board[stage]}
              over={over === stage}
              loadingMore={loadingMore.has(stage)}
              onMore={() => void more(stage)}
              dropHandlers={{
                onDragOver: (event: DragEvent) => {
                  if (!dragging) return;
                  event.preventDefault();
                  if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
                  setOver(stage);
                },
                onDragLeave: (event: DragEvent) => {
                  const next = event.relatedTarget as Node | null;
                  if (!next || !(event.currentTarget as HTMLElement).contains(next)) setOver(undefined);
                },
                onDrop: (event: DragEvent) => {
                  event.preventDefault();
                  const id = event.dataTransfer?.getData('text/plain') || dragging;
                  setOver(undefined);
                  setDragging(undefined);
                  if (id) void move(id, stage);
                },
              }}
              renderCard={(deal) => (
                <DealCard
                  key={deal.id}
                  deal={deal}
                  canMove={canMove}
                  onMove={(to) => moveFocused(deal.id, to)}
                  onDragStart={() => setDragging(deal.id)}
                  onDragEnd={() => {
                    setDragging(undefined);
                    setOver(undefined);
                  }}
                />
              )}
            />
          ))}
        </div>
      )}
    </>
  );
}

interface DropHandlers {
  onDragOver: (event: DragEvent) => void;
  onDragLeave: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
}

function BoardColumn({
  column,
  over,
  loadingMore,
  onMore,
  dropHandlers,
  renderCard,
}: {
  column: Column;
  over: boolean;
  loadingMore: boolean;
  onMore: () => void;
  dropHandlers: DropHandlers;
  renderCard: (deal: Column['deals'][number]) => JSX.Element;
}) {
  const { stage, deals, total, sums, next } = column;
  const name = humanize(stage);
  const headingId = `stage-${stage}`;
  const left = Math.max(0, total - deals.length);
  // After "Show more", focus goes to the first new card when the button is gone (nothing left).
  const cards = useRef<HTMLOListElement>(null);
  const firstNew = useRef<number | undefined>(undefined);
  useEffect(() => {
    const index = firstNew.current;
    if (index === undefined || deals.length <= index) return;
    firstNew.current = undefined;
    if (!document.activeElement || document.activeElement === document.body) {
      (cards.current?.children[index] as HTMLElement | undefined)?.focus();
    }
  }, [deals.length]);
  return (
    <section
      class={`board-column stage-${stage}${over ? ' drop-target' : ''}`}
      aria-labelledby={headingId}
      {...dropHandlers}
    >
      <header class="column-header">
        <h2 id={headingId}>{name}</h2>
        <p class="column-count">
          {total} {total === 1 ? 'deal' : 'deals'}
        </p>
        {sums.length ? (
          <ul class="column-sums" aria-label={`${name} totals per currency`}>
            {sums.map((sum) => (
              <li key={sum.currency}>{formatMoney(sum.amount, sum.currency)}</li>
            ))}
          </ul>
        ) : (
          <p class="column-sums muted">No amounts</p>
        )}
      </header>
      {deals.length ? (
        <ol class="column-cards" aria-label={`Deals in ${name}`} ref={cards}>
          {deals.map(renderCard)}
        </ol>
      ) : (
        <p class="column-empty muted">No deals</p>
      )}
      {next && (
        <button
          type="button"
          class="secondary small column-more"
          aria-disabled={loadingMore || undefined}
          onClick={() => {
            if (loadingMore) return;
            firstNew.current = deals.length;
            onMore();
          }}
        >
          {loadingMore ? 'Loading…' : 'Show more'}
          <span class="visually-hidden"> in {name}</span>
          {left > 0 && ` (${left} not shown)`}
        </button>
      )}
    </section>
  );
}
