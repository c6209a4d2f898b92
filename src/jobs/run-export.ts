// The run_export task: writes an export's file into "ExportChunk" rows, a batch
// of rows per chunk, in keyset order (createdAt, id). The rows are read in one
// REPEATABLE READ transaction, so the file is one moment's data and rowsTotal
// (counted first, in that snapshot) is exact; each chunk is written with the
// export's progress in one statement on another connection, so GET shows it at
// once. Memory holds one batch, whatever the table's size. A run that dies is
// started again from nothing by graphile-worker's next attempt; after the last,
// the export is failed with the reason. A file over EXPORT_MAX_ROWS (known from the
// count, before anything is written) or EXPORT_MAX_BYTES (known as it grows) fails
// at once, saying which, and its chunks are deleted. A source whose record
// unfolds into several rows (an invoice's lines) orders them within the record
// (source.within), so a batch may end inside one. The change feed's cursor of the
// same snapshot is recorded with the count (changesCursor): the client follows the
// feed from it after loading the file.
import type { Task } from 'graphile-worker';
import type pg from 'pg';
import type { ExportLimits } from '../config.js';
import { hasScope } from '../auth/scopes.js';
import { DomainError } from '../errors.js';
// Resources declare themselves when their area loads; a worker process of its own loads them here.
import '../graphql/modules.js';
import { sqlSelectOf } from '../graphql/kit/field-sql.js';
import { inMajorUnits, type ExportAmounts } from '../graphql/system/export/amounts.js';
import { rowWriter } from '../graphql/system/export/format.js';
import { exportSources, keysetColumns, type ExportSource } from '../graphql/system/export/sources.js';
import { Export, type ExportFormat } from '../graphql/system/export/type.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import { eventRow, insertEvents } from '../events/insert.js';
import { EXPORT_EVENTS } from '../events/system-events.js';
import { sequenceBeforeSnapshot, snapshotChangesCursor } from '../changes/snapshot-cursor.js';
import { EXPORT_JOBS, fileJobTask } from './file-jobs.js';

/** Rows per batch, and so per chunk (a few hundred KB of CSV). */
export const EXPORT_BATCH_ROWS = 1_000;

interface ExportRow {
  id: string;
  organizationId: string;
  resource: string;
  format: ExportFormat;
  amounts: ExportAmounts;
  bom: boolean;
  filters: Record<string, unknown>;
  /** What the file holds: a row as a holder of these scopes reads it. */
  scopes: string[] | null;
  status: string;
}

/** A failure no retry mends (the resource is no longer declared, its filters no longer valid, the file too big). */
class ExportRefused extends Error {}

const KEYSET_AT = '_keysetAt';
const KEYSET_ID = '_keysetId';
const KEYSET_WITHIN = '_keysetWithin';

const WRITE_CHUNK = `with chunk as (insert into "ExportChunk" ("exportId", seq, data) values ($1, $2, $3))
  update "Export" set "rowsWritten" = "rowsWritten" + $4, size = size + $5, "updatedAt" = now() where id = $1`;

/**
 * Completes the export and raises export.completed (data.object: the export as GET
 * shows it; actor: system, the worker) in one statement.
 */
const COMPLETE = `with done as (
    update "Export" set status = 'completed', "completedAt" = now(), "updatedAt" = now()
    where id = $1 and status = 'running' returning *)
  ${insertEvents([
    eventRow(
      {
        id: '$2',
        organizationId: '"Export"."organizationId"',
        type: `'${EXPORT_EVENTS.completed.type}'`,
        object: `(select to_jsonb(shown) from (select ${sqlSelectOf(Export, 'Export')}) shown)`,
        actorType: `'system'`,
        actorId: 'null',
      },
      'from done as "Export"',
    ),
  ])}`;

function sourceOf(row: ExportRow): { source: ExportSource; filters: Record<string, unknown> } {
  const source = exportSources().get(row.resource);
  if (!source) throw new ExportRefused(`The resource ${row.resource} can no longer be exported`);
  const parsed = source.filters.safeParse(row.filters);
  if (!parsed.success) throw new ExportRefused(`The filters are no longer valid for ${row.resource}`);
  if (row.amounts === 'decimal' && source.noDecimal) throw new ExportRefused(source.noDecimal);
  return { source, filters: parsed.data };
}

/** Writes the export's file; answers false when there was nothing to do (gone, or already completed). */
export async function runExport(
  pool: pg.Pool,
  exportId: string,
  limits: Pick<ExportLimits, 'maxRows' | 'maxBytes'>,
  batchRows = EXPORT_BATCH_ROWS,
): Promise<boolean> {
  await sequenceBeforeSnapshot(pool);
  const reader = await pool.connect();
  try {
    await reader.query('begin isolation level repeatable read read only');
    const found = await reader.query<ExportRow>(
      `select id, "organizationId", resource, format, amounts, bom, filters, scopes, status from "Export" where id = $1`,
      [exportId],
    );
    const row = found.rows[0];
    if (!row || row.status === 'completed') return false;
    const { source, filters } = sourceOf(row);
    const scopes = new Set(row.scopes ?? ['admin']);
    const where = source.where(row.organizationId, filters, scopes);
    // Without the fields its scopes do not read (an employee's salary without hr:payroll).
    const hidden = source.hidden.filter(({ scope }) => !hasScope(scopes, scope)).map(({ name }) => name);
    const dropped = [KEYSET_AT, KEYSET_ID, KEYSET_WITHIN, ...hidden];
    const counted = await reader.query<{ total: number }>(
      `select count(*)::int as total from ${source.from} where ${where.sql}`,
      where.params,
    );
    const total = counted.rows[0]!.total;
    if (total > limits.maxRows) {
      throw new ExportRefused(
        `The export would hold ${total} rows, more than the ${limits.maxRows} an export may hold ` +
          '(EXPORT_MAX_ROWS): narrow it with filters',
      );
    }
    // In the file's snapshot: a client that loaded the file follows the feed from here.
    const changesCursor = await snapshotChangesCursor(reader, row.organizationId);
    await pool.query(`delete from "ExportChunk" where "exportId" = $1`, [exportId]);
    await pool.query(
      `update "Export" set status = 'running', "rowsTotal" = $2, "rowsWritten" = 0, size = 0, "failureReason" = null,
         "changesCursor" = $3, "startedAt" = now(), "updatedAt" = now() where id = $1`,
      [exportId, total, changesCursor],
    );

    const writer = rowWriter(
      row.format,
      source.columns.filter((column) => !hidden.includes(column)),
      { bom: row.bom },
    );
    const money = row.amounts === 'decimal' ? source.money : undefined;
    const keyset = keysetColumns(source.table);
    const { within } = source;
    const n = where.params.length;
    const keys = [`${keyset.at}::text as "${KEYSET_AT}"`, `${keyset.id} as "${KEYSET_ID}"`];
    if (within) keys.push(`${within.sql}::text as "${KEYSET_WITHIN}"`);
    const first = `select ${source.select}, ${keys.join(', ')} from ${source.from} where ${where.sql}`;
    const order = `order by ${keyset.at}, ${keyset.id}${within ? `, ${within.sql}` : ''} limit ${batchRows}`;
    // Past the last row: (createdAt, id) through the table's index, then within the record it ended in.
    const record = `(${keyset.at}, ${keyset.id})`;
    const past = within
      ? `${record} >= ($${n + 1}::timestamptz, $${n + 2}) and (${keyset.at}, ${keyset.id}, ${within.sql}) > ` +
        `($${n + 1}::timestamptz, $${n + 2}, $${n + 3}::${within.type})`
      : `${record} > ($${n + 1}::timestamptz, $${n + 2})`;
    let after: string[] | undefined;
    let size = 0;
    for (let seq = 0; ; seq++) {
      const batch = after
        ? await reader.query(`${first} and ${past} ${order}`, [...where.params, ...after])
        : await reader.query(`${first} ${order}`, where.params);
      const rows = batch.rows as Record<string, unknown>[];
      const last = rows.at(-1);
      if (last) {
        after = [last[KEYSET_AT] as string, last[KEYSET_ID] as string];
        if (within) after.push(last[KEYSET_WITHIN] as string);
      }
      for (const r of rows) for (const column of dropped) delete r[column];
      const visible = source.visible ? rows.map((r) => source.visible!(r, scopes)) : rows;
      const shown = money ? visible.map((r) => inMajorUnits(r, money)) : visible;
      const bytes = Buffer.from((seq === 0 ? writer.header() : '') + writer.rows(shown), 'utf8');
      size += bytes.length;
      if (size > limits.maxBytes) {
        throw new ExportRefused(
          `The file would be larger than the ${limits.maxBytes} bytes an export may hold (EXPORT_MAX_BYTES): ` +
            'narrow it with filters',
        );
      }
      if (seq === 0 || bytes.length > 0) {
        await pool.query(WRITE_CHUNK, [exportId, seq, bytes, rows.length, bytes.length]);
      }
      if (rows.length < batchRows) break;
    }
    await reader.query('commit');
    await pool.query(COMPLETE, [exportId, newId('event')]);
    return true;
  } finally {
    await reader.query('rollback').catch(() => {});
    reader.release();
  }
}

/** Fails the export with the reason; the part of its file already written goes. */
async function markFailed(pool: pg.Pool, exportId: string, reason: string): Promise<void> {
  await pool.query(
    `with failed as (
       update "Export" set status = 'failed', "failureReason" = $2, "updatedAt" = now()
       where id = $1 and status <> 'completed' returning id)
     delete from "ExportChunk" where "exportId" in (select id from failed)`,
    [exportId, reason],
  );
}

export interface ExportTaskDependencies {
  pool: pg.Pool;
  logger: Logger;
  limits: Pick<ExportLimits, 'maxRows' | 'maxBytes'>;
  batchRows?: number;
}

export function runExportTask({ pool, logger, limits, batchRows }: ExportTaskDependencies): Task {
  return fileJobTask({
    queue: EXPORT_JOBS,
    noun: 'export',
    again: 'Create it again.',
    logger,
    run: (exportId) => runExport(pool, exportId, limits, batchRows),
    refused: (error) => error instanceof ExportRefused || error instanceof DomainError,
    fail: (exportId, reason) => markFailed(pool, exportId, reason),
  });
}
