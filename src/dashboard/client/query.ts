// Data from /graphql as a page's state: a query run when its variables change
// (or taken from the page a full load came with), reloaded or quietly refreshed,
// and polled while the tab is shown.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, graphql } from './api.js';
import { takeFirstAnswer } from './first-answer.js';

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
