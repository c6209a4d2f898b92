// The run_import task: reads an import's file from its "ImportChunk" rows (a chunk
// at a time, streamed through the CSV or NDJSON reader), counts its rows, then
// applies them in batches through the resource's own service as the caller who
// posted it (src/imports/apply.ts). Memory holds a chunk and a batch, whatever
// the file's size.
// - A committed import commits each batch with its progress in one transaction,
//   so a run that dies resumes after the last committed batch (nothing twice).
// - A dry run and an atomic import run every batch in one transaction: a dry run
//   rolls it back (its counts say what would have happened); an atomic import
//   commits it only when no row was refused, else rolls it back and fails. Their
//   progress is written on another connection, so GET shows it at once; a run
//   that dies starts again from nothing.
// Done, it raises import.completed (data.object: the import as GET shows it) and
// deletes the file.
import type { Task } from 'graphile-worker';
import type pg from 'pg';
import type { Principal } from '../auth/principal.js';
// Resources declare themselves when their area loads; a worker process of its own loads them here.
import '../graphql/modules.js';
import { sqlSelectOf } from '../graphql/kit/field-sql.js';
import { fileChunks } from '../graphql/system/file-job/reads.js';
import { Import, IMPORT_ERRORS_KEPT } from '../graphql/system/import/type.js';
import { eventRow, insertEvents } from '../events/insert.js';
import { IMPORT_COMPLETED } from '../events/system-events.js';
import { newId } from '../ids.js';
import { applyBatch, readBatch, type ImportPlan, type ReadBatch, type RowRefusal } from '../imports/apply.js';
import { importables } from '../imports/importable.js';
import { fileRecords, UnreadableFile, type FileRecord, type ImportFormat } from '../imports/records.js';
import type { Logger } from '../logger.js';
import { fileJobTask, IMPORT_JOBS } from './file-jobs.js';

/** Rows applied per batch (and per transaction, for a committed import). */
export const IMPORT_BATCH_ROWS = 500;

interface ImportRow {
  id: string;
  organizationId: string;
  resource: string;
  format: ImportFormat;
  mode: 'create' | 'upsert';
  key: string | null;
  dryRun: boolean;
  atomic: boolean;
  callerScopes: string[];
  userId: string | null;
  actorType: string;
  actorId: string | null;
  status: string;
  rowsTotal: number | null;
  rowsProcessed: number;
  rowsCreated: number;
  rowsUpdated: number;
  rowsRefused: number;
}

/** A failure no retry mends (the file cannot be read, the resource is gone, an atomic import refused). */
class ImportRefused extends Error {}

const SHOWN = `(select to_jsonb(shown) from (select ${sqlSelectOf(Import, 'Import')}) shown)`;

/** Ends the import (completed or failed), deletes its file and raises import.completed, in one statement. */
const FINISH = `with done as (
    update "Import" set status = $2, "failureReason" = $3, "completedAt" = now(), "updatedAt" = now()
    where id = $1 and status in ('queued', 'running') returning *),
  file as (delete from "ImportChunk" where "importId" in (select id from done))
  ${insertEvents([
    eventRow(
      {
        id: '$4',
        organizationId: '"Import"."organizationId"',
        type: `'${IMPORT_COMPLETED.type}'`,
        object: SHOWN,
        actorType: `'system'`,
        actorId: 'null',
      },
      'from done as "Import"',
    ),
  ])}`;

const PROGRESS = `update "Import" set "rowsProcessed" = $2, "rowsCreated" = $3, "rowsUpdated" = $4,
  "rowsRefused" = $5, errors = errors || $6::jsonb, "updatedAt" = now() where id = $1`;

/** The caller who posted the import, as the rows are written. */
function principalOf(row: ImportRow): Principal {
  return {
    organizationId: row.organizationId,
    scopes: new Set(row.callerScopes),
    credential: { type: 'operator', id: row.id },
    ...(row.userId && { userId: row.userId }),
    actor: { type: row.actorType as NonNullable<Principal['actor']>['type'], id: row.actorId },
  };
}

interface Tally {
  processed: number;
  created: number;
  updated: number;
  refused: number;
}

export async function runImport(pool: pg.Pool, importId: string, batchRows = IMPORT_BATCH_ROWS): Promise<boolean> {
  const found = await pool.query<ImportRow>(`select * from "Import" where id = $1`, [importId]);
  const row = found.rows[0];
  if (!row || row.status === 'completed' || row.status === 'failed') return false;
  const importable = importables().get(row.resource);
  if (!importable) throw new ImportRefused(`The resource ${row.resource} can no longer be imported`);
  const plan: ImportPlan = {
    importable,
    principal: principalOf(row),
    mode: row.mode,
    ...(row.key && { key: row.key }),
  };
  const records = () => fileRecords(fileChunks(pool, 'Import', importId, 1), row.format, importable);

  let total = row.rowsTotal;
  if (total === null) {
    total = 0;
    for await (const _record of records()) total++;
  }
  // One transaction for all (dry run, atomic): a run starts again from nothing; else after the committed batches.
  const single = row.dryRun || row.atomic;
  const tally: Tally = single
    ? { processed: 0, created: 0, updated: 0, refused: 0 }
    : { processed: row.rowsProcessed, created: row.rowsCreated, updated: row.rowsUpdated, refused: row.rowsRefused };
  await pool.query(
    `update "Import" set status = 'running', "rowsTotal" = $2, "startedAt" = coalesce("startedAt", now()),
       "updatedAt" = now()${single ? `, "rowsProcessed" = 0, "rowsCreated" = 0, "rowsUpdated" = 0, "rowsRefused" = 0, errors = '[]'` : ''}
     where id = $1`,
    [importId, total],
  );

  const client = await pool.connect();
  const ignore = () => {};
  client.on('error', ignore);
  let healthy = true;
  // The batch being written, while the next is read (below).
  let writing: Promise<void> = Promise.resolve();
  try {
    if (single) await client.query('begin');
    const progress = (db: pg.Pool | pg.PoolClient, refused: RowRefusal[]) => {
      const kept = Math.max(0, IMPORT_ERRORS_KEPT - (tally.refused - refused.length));
      return db.query(PROGRESS, [
        importId,
        tally.processed,
        tally.created,
        tally.updated,
        tally.refused,
        JSON.stringify(refused.slice(0, kept)),
      ]);
    };
    const apply = async (batch: ReadBatch) => {
      if (!single) await client.query('begin');
      const result = await applyBatch(client, plan, batch);
      tally.processed += batch.records.length;
      tally.created += result.created;
      tally.updated += result.updated;
      tally.refused += result.refused.length;
      if (single) {
        await progress(pool, result.refused);
      } else {
        await progress(client, result.refused);
        await client.query('commit');
      }
    };
    // One batch is written while the next is read and checked: the database and the worker's
    // JavaScript work at once. Batches are still written one after another on the one connection.
    const next = async (batch: FileRecord[]) => {
      const read = readBatch(plan, batch);
      await writing;
      writing = apply(read);
      // Its failure is thrown where it is awaited: before the next batch, or at the end.
      writing.catch(() => {});
    };
    let batch: FileRecord[] = [];
    let seen = 0;
    for await (const record of records()) {
      if (++seen <= tally.processed) continue;
      batch.push(record);
      if (batch.length >= batchRows) {
        await next(batch);
        batch = [];
      }
    }
    if (batch.length) await next(batch);
    await writing;

    if (row.atomic && !row.dryRun && tally.refused > 0) {
      await client.query('rollback');
      await pool.query(`update "Import" set "rowsCreated" = 0, "rowsUpdated" = 0 where id = $1`, [importId]);
      throw new ImportRefused(
        `${tally.refused} of ${total} rows were refused (see errors): the import is atomic, so nothing was written`,
      );
    }
    if (single && row.dryRun) {
      await client.query('rollback');
      await pool.query(FINISH, [importId, 'completed', null, newId('event')]);
    } else if (single) {
      // The atomic import's rows and its completion commit together.
      await client.query(FINISH, [importId, 'completed', null, newId('event')]);
      await client.query('commit');
    } else {
      await pool.query(FINISH, [importId, 'completed', null, newId('event')]);
    }
    return true;
  } catch (error) {
    // A file that stops reading while a batch is written: that batch ends first, on its own.
    await writing.catch(() => {});
    await client.query('rollback').catch(() => (healthy = false));
    throw error;
  } finally {
    client.off('error', ignore);
    client.release(healthy ? undefined : true);
  }
}

/** Fails the import with the reason (import.completed says so too); its file goes. */
async function markFailed(pool: pg.Pool, importId: string, reason: string): Promise<void> {
  await pool.query(FINISH, [importId, 'failed', reason, newId('event')]);
}

export interface ImportTaskDependencies {
  pool: pg.Pool;
  logger: Logger;
  batchRows?: number;
}

export function runImportTask({ pool, logger, batchRows }: ImportTaskDependencies): Task {
  return fileJobTask({
    queue: IMPORT_JOBS,
    noun: 'import',
    again: 'Post it again.',
    logger,
    run: (importId) => runImport(pool, importId, batchRows),
    refused: (error) => error instanceof ImportRefused || error instanceof UnreadableFile,
    fail: (importId, reason) => markFailed(pool, importId, reason),
  });
}
