// Applies a batch of an import's records on a connection inside a transaction,
// each through the resource's own service as the caller who posted the import:
// POST's validation, rules and events for a new record, PUT's for one an upsert
// matches by its key. A record the service refuses is a refused row with the
// API's own code, field and message. The batch runs under a savepoint; when a
// statement fails outside the service's own savepoints (a unique email taken: the
// insert itself fails), the batch is rolled back to it and run again with a
// savepoint around each row, so the good rows still go in: one round trip per row
// when the file is clean, three when the batch holds a refusal of the database's.
// A clean batch queues every row's statements on the connection at once (the
// connection runs them in order), so the rows' checks overlap the database's work.
import type pg from 'pg';
import type { Principal } from '../auth/principal.js';
import type { PrismaClient } from '../db/prisma.js';
import { DomainError } from '../errors.js';
import { createsInBulk, type CheckedCreates } from '../graphql/kit/bulk-create.js';
import { ResourceService } from '../graphql/kit/resource-service.js';
import type { Resource } from '../graphql/kit/resource.js';
import { parseInput } from '../validation.js';
import type { Importable } from './importable.js';
import type { FileRecord } from './records.js';
import { transactionPool } from './transaction-pool.js';

export interface RowRefusal {
  row: number;
  field: string | null;
  message: string;
  code: string;
}

export interface BatchResult {
  created: number;
  updated: number;
  refused: RowRefusal[];
}

export interface ImportPlan {
  importable: Importable;
  principal: Principal;
  mode: 'create' | 'upsert';
  key?: string;
}

class Restart extends Error {}

/**
 * A batch as read from the file; for a create into a resource written in bulk,
 * with its rows checked already (no database needed), so the worker checks the
 * next batch while the database writes this one.
 */
export interface ReadBatch {
  records: readonly FileRecord[];
  /** The records without a refusal of the file's, checked as creates, in order. */
  checked?: CheckedCreates;
}

export function readBatch(plan: ImportPlan, records: readonly FileRecord[]): ReadBatch {
  const resource = plan.importable.resource as Resource<{ id: string }>;
  if (plan.mode !== 'create' || !createsInBulk(resource)) return { records };
  // checkCreates reads no database.
  const service = new ResourceService(resource, { pool: undefined as never, prisma: undefined as never });
  const values = records.flatMap((record) => (record.refusal ? [] : [record.value]));
  return { records, checked: service.checkCreates(plan.principal, values) };
}

/** The ids of the records already holding the batch's keys (normalised as the schema stores them). */
async function existingByKey(client: pg.PoolClient, plan: ImportPlan, records: readonly FileRecord[]) {
  const key = plan.key!;
  const schema = plan.importable.input.fields[key]!.schema;
  const values = new Set<string>();
  for (const record of records) {
    const parsed = record.value && schema.safeParse(record.value[key]);
    if (parsed?.success && parsed.data != null) values.add(String(parsed.data));
  }
  const found = new Map<string, string>();
  if (!values.size) return found;
  const { table } = plan.importable.resource;
  const { rows } = await client.query<{ id: string; key: string }>(
    `select id, "${key}"::text as key from "${table}" where "organizationId" = $1 and "${key}" = any($2)`,
    [plan.principal.organizationId, [...values]],
  );
  for (const row of rows) found.set(row.key, row.id);
  return found;
}

export async function applyBatch(client: pg.PoolClient, plan: ImportPlan, batch: ReadBatch): Promise<BatchResult> {
  const { records } = batch;
  await client.query('savepoint import_batch');
  try {
    const result = await runBatch(client, plan, records, false, batch.checked);
    await client.query('release savepoint import_batch');
    return result;
  } catch (error) {
    if (!(error instanceof Restart)) throw error;
    await client.query('rollback to savepoint import_batch');
    const result = await runBatch(client, plan, records, true);
    await client.query('release savepoint import_batch');
    return result;
  }
}

/**
 * A batch's new records written many at once (ResourceService.createMany: the
 * same checks, events and 409s as one create each, one statement for the lot).
 * In an upsert, the rows whose key matches no record and no earlier row of the
 * batch; the others (matches, a key repeated later in the batch) are answered
 * for the caller to write one by one, after these, so a repeated key updates
 * the record made here. Answers those rows, in file order.
 */
async function createInBulk(
  service: ResourceService<{ id: string }>,
  plan: ImportPlan,
  records: readonly FileRecord[],
  existing: Map<string, string> | undefined,
  refuse: (row: number, error: unknown) => void,
  result: BatchResult,
  checked?: CheckedCreates,
): Promise<FileRecord[]> {
  const { importable, key } = plan;
  const creates: { record: FileRecord & { value: Record<string, unknown> }; key?: string }[] = [];
  const rest: FileRecord[] = [];
  const claimed = new Set<string>();
  for (const record of records) {
    if (record.refusal) {
      rest.push(record);
      continue;
    }
    if (!existing) {
      creates.push({ record });
      continue;
    }
    let patch: Record<string, unknown>;
    try {
      patch = parseInput(importable.input.update, record.value) as Record<string, unknown>;
    } catch (error) {
      refuse(record.row, error);
      continue;
    }
    const value = patch[key!];
    const named = value == null ? undefined : String(value);
    if (named !== undefined && (existing.has(named) || claimed.has(named))) {
      rest.push(record);
      continue;
    }
    if (named !== undefined) claimed.add(named);
    creates.push({ record, key: named });
  }
  // Without an upsert's key, `creates` are the batch's records without a refusal: what readBatch checked.
  const outcomes =
    checked && !existing
      ? await service.writeCreates(checked)
      : await service.createMany(
          plan.principal,
          creates.map(({ record }) => record.value),
        );
  creates.forEach(({ record, key: named }, i) => {
    const outcome = outcomes[i]!;
    if (outcome.refusal) return refuse(record.row, outcome.refusal);
    result.created++;
    if (named !== undefined) existing!.set(named, outcome.id);
  });
  return rest;
}

async function runBatch(
  client: pg.PoolClient,
  plan: ImportPlan,
  records: readonly FileRecord[],
  careful: boolean,
  checked?: CheckedCreates,
): Promise<BatchResult> {
  const { importable, principal, mode, key } = plan;
  const transaction = transactionPool(client);
  const service = new ResourceService(importable.resource as Resource<{ id: string }>, {
    pool: transaction.pool,
    prisma: undefined as unknown as PrismaClient,
  });
  const existing = mode === 'upsert' ? await existingByKey(client, plan, records) : undefined;
  const result: BatchResult = { created: 0, updated: 0, refused: [] };
  const refuse = (row: number, error: unknown) => {
    if (!(error instanceof DomainError)) throw error;
    result.refused.push({ row, code: error.code, field: error.field ?? null, message: error.message });
  };
  const write = async (record: FileRecord & { value: Record<string, unknown> }) => {
    if (existing) {
      const patch = parseInput(importable.input.update, record.value) as Record<string, unknown>;
      const id = existing.get(String(patch[key!]));
      if (id) {
        await service.update(principal, id, patch, true);
        return 'updated';
      }
      const created = (await service.create(principal, record.value)) as Record<string, unknown>;
      // A later row with the same key updates this one.
      existing.set(String(created[key!]), created.id as string);
      return 'created';
    }
    await service.create(principal, record.value);
    return 'created';
  };
  const count = (outcome: 'created' | 'updated') => (outcome === 'created' ? result.created++ : result.updated++);

  if (!careful) {
    let rest = records;
    if (createsInBulk(importable.resource)) {
      try {
        rest = await createInBulk(service, plan, records, existing, refuse, result, checked);
      } catch (error) {
        if (transaction.aborted()) throw new Restart();
        throw error;
      }
    }
    // Every row's statements queued on the connection at once: the next rows are checked while the
    // database writes the first. A refusal that aborts the transaction restarts the batch, carefully.
    const outcomes = await Promise.allSettled(
      rest.map((record) => (record.refusal ? Promise.resolve(undefined) : write(record))),
    );
    if (transaction.aborted()) throw new Restart();
    rest.forEach((record, i) => {
      const outcome = outcomes[i]!;
      if (record.refusal) result.refused.push({ row: record.row, code: 'VALIDATION_ERROR', ...record.refusal });
      else if (outcome.status === 'fulfilled') count(outcome.value!);
      else refuse(record.row, outcome.reason);
    });
    result.refused.sort((a, b) => a.row - b.row);
    return result;
  }
  for (const record of records) {
    if (record.refusal) {
      result.refused.push({ row: record.row, code: 'VALIDATION_ERROR', ...record.refusal });
      continue;
    }
    await client.query('savepoint import_row');
    try {
      count(await write(record));
      await client.query('release savepoint import_row');
    } catch (error) {
      await client.query('rollback to savepoint import_row');
      transaction.recovered();
      refuse(record.row, error);
    }
  }
  return result;
}
