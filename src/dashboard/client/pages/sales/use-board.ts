// The board's state and what changes it: the first load, a move (shown at
// once, saved through updateDeal, put back with the API's message when
// refused), "more" for a column, and a status line for screen readers.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../../api.js';
import { asApiError, humanize } from '../../ui.js';
import {
  appendCards,
  findDeal,
  loadBoard,
  loadMore,
  loadSums,
  moveCard,
  replaceCard,
  saveStage,
  withSums,
  type Board,
  type Stage,
} from './board-data.js';

export interface BoardState {
  board?: Board;
  loadError?: ApiError;
  /** What the last move did, for the aria-live region. */
  status: string;
  /** The API's refusal of the last move (or a failed "more"), shown until the next one. */
  alert?: string;
  /** Columns loading their next cards. */
  loadingMore: ReadonlySet<Stage>;
  move(id: string, to: Stage): Promise<void>;
  more(stage: Stage): Promise<void>;
}

export function useBoard(): BoardState {
  const [board, setBoard] = useState<Board>();
  const [loadError, setLoadError] = useState<ApiError>();
  const [status, setStatus] = useState('');
  const [alert, setAlert] = useState<string>();
  const [loadingMore, setLoadingMore] = useState<ReadonlySet<Stage>>(new Set());
  // The latest board, for handlers that run after awaits.
  const current = useRef<Board | undefined>(undefined);
  current.current = board;

  useEffect(() => {
    loadBoard().then(setBoard, (error: unknown) => setLoadError(asApiError(error)));
  }, []);

  const move = useCallback(async (id: string, to: Stage) => {
    const before = current.current && findDeal(current.current, id);
    if (!before || before.deal.stage === to) return;
    const { deal, index } = before;
    const from = deal.stage;
    setAlert(undefined);
    setStatus(`Moving ${deal.title} to ${humanize(to)}…`);
    setBoard((b) => b && moveCard(b, id, to));
    try {
      const saved = await saveStage(id, to);
      setBoard((b) => b && replaceCard(b, saved));
      setStatus(`Moved ${deal.title} from ${humanize(from)} to ${humanize(to)}.`);
    } catch (caught) {
      // Put back where it was, and say why (a closed deal's stage cannot change).
      setBoard((b) => b && moveCard(b, id, from, index));
      const message = `${deal.title} stays in ${humanize(from)}: ${asApiError(caught).message}`;
      setAlert(message);
      setStatus(message);
    }
    // The server's sums, exact whatever else changed meanwhile.
    loadSums().then(
      (sums) => setBoard((b) => b && withSums(b, sums)),
      () => undefined,
    );
  }, []);

  const more = useCallback(async (stage: Stage) => {
    const column = current.current?.[stage];
    if (!column?.next) return;
    const after = column.next;
    setAlert(undefined);
    setLoadingMore((s) => new Set(s).add(stage));
    try {
      const shown = new Set(column.deals.map((deal) => deal.id));
      const { deals, next } = await loadMore(stage, after, shown);
      setBoard((b) => b && appendCards(b, stage, deals, next));
      setStatus(`${deals.length} more shown in ${humanize(stage)}.`);
    } catch (caught) {
      setAlert(`More deals in ${humanize(stage)} could not be loaded: ${asApiError(caught).message}`);
    } finally {
      setLoadingMore((s) => {
        const next = new Set(s);
        next.delete(stage);
        return next;
      });
    }
  }, []);

  return { board, loadError, status, alert, loadingMore, move, more };
}
