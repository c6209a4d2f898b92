// Named statements: node-postgres prepares a named statement once per
// connection and afterwards sends only its parameters, so PostgreSQL parses and
// plans the kit's few statement shapes once instead of on every request.
import { createHash } from 'node:crypto';
import type pg from 'pg';

const names = new Map<string, string>();

/** A query config whose name is derived from its text: the same text, the same prepared statement. */
export function namedStatement(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `kit_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return { name, text, values };
}
