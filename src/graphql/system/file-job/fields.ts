// What an export's and an import's types and lists share: the file's size and the
// job's status filter.
import { Float } from 'type-graphql';
import { z } from 'zod';
import type { FieldKind } from '../../kit/fields.js';
import { filter } from '../../kit/list.js';

/** A byte count (a bigint column): a Float in GraphQL, whose Int stops at 2^31. */
export const byteCountKind: FieldKind = {
  graphql: () => Float,
  schema: () => z.int().min(0),
  sql: (c) => `${c}::float8`,
  fromRow: (v) => Number(v),
  column: 'BIGINT',
};

/** The list filter `status` of a job's table, over its states in order. */
export function statusFilter(table: string, statuses: readonly [string, ...string[]]) {
  const said = `${statuses.slice(0, -1).join(', ')} or ${statuses.at(-1)}`;
  return filter(z.enum(statuses, { message: `must be one of ${statuses.join(', ')}` }), {
    description: `${said}.`,
    where: (p) => `"${table}".status = ${p}`,
  });
}
