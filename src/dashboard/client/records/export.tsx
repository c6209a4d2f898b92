// Export of a list as it is filtered: the exports API writes the file in the
// background (createExport with the list's filters), the page follows it with
// a progress bar, then offers the file through the dashboard's own download
// route (src/dashboard/export-download.ts: /v1's takes a Bearer key only).
// Amounts in the currency's units where each has its currency beside it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { graphql } from '../api.js';
import { BASE } from '../route.js';
import { asApiError, ErrorMessage } from '../ui.js';
import type { CatalogueResource } from './catalogue.js';

interface ExportState {
  id: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  rowsWritten: number;
  rowsTotal: number | null;
  failureReason: string | null;
}

const FIELDS = 'id status rowsWritten rowsTotal failureReason';
const CREATE = `mutation Export($input: CreateExportInput!) { createExport(input: $input) { ${FIELDS} } }`;
const FOLLOW = `query ExportProgress($id: ID!) { export(id: $id) { ${FIELDS} } }`;
const POLL_MS = 500;

/** Major units when every amount has its currency beside it (the API refuses them otherwise). */
const amountsOf = (entry: CatalogueResource) =>
  entry.fields.some((field) => field.kind === 'money') && entry.fields.some((field) => field.name === 'currency')
    ? 'decimal'
    : 'minor';

export function ExportButton({ entry, filters }: { entry: CatalogueResource; filters: Record<string, unknown> }) {
  const [state, setState] = useState<ExportState>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
      clearTimeout(timer.current);
    },
    [],
  );

  const follow = (id: string) => {
    timer.current = setTimeout(() => {
      graphql<{ export: ExportState }>(FOLLOW, { id }).then(
        ({ export: next }) => {
          if (!alive.current) return;
          setState(next);
          if (next.status === 'pending' || next.status === 'running') follow(id);
        },
        (caught: unknown) => setError(caught),
      );
    }, POLL_MS);
  };

  const start = async () => {
    clearTimeout(timer.current);
    setBusy(true);
    setError(undefined);
    setState(undefined);
    try {
      const { createExport } = await graphql<{ createExport: ExportState }>(CREATE, {
        input: { resource: entry.key, format: 'csv', amounts: amountsOf(entry), filters },
      });
      setState(createExport);
      follow(createExport.id);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const running = state && (state.status === 'pending' || state.status === 'running');
  return (
    <div class="export">
      <button type="button" class="secondary" disabled={busy || !!running} onClick={() => void start()}>
        Export
      </button>
      <div class="export-status" role="status" aria-live="polite">
        {running && <ExportProgress state={state} />}
        {state?.status === 'completed' && (
          <a class="button" href={`${BASE}/exports/${encodeURIComponent(state.id)}/download`} download>
            Download CSV ({state.rowsWritten} {state.rowsWritten === 1 ? 'row' : 'rows'})
          </a>
        )}
        {state?.status === 'failed' && (
          <ErrorMessage error={`The export failed: ${state.failureReason ?? 'unknown'}`} />
        )}
      </div>
      {error !== undefined && <ErrorMessage error={asApiError(error)} />}
    </div>
  );
}

function ExportProgress({ state }: { state: ExportState }) {
  const total = state.rowsTotal;
  return (
    <span class="export-progress">
      <progress
        aria-label="Export progress"
        max={total ?? undefined}
        value={total === null ? undefined : state.rowsWritten}
      />
      <span>{total === null ? 'Preparing the export…' : `Exporting: ${state.rowsWritten} of ${total} rows`}</span>
    </span>
  );
}
