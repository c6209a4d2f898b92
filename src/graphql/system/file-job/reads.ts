// Reading a job with a file: its list and its record, each narrowed to what the
// caller may see, and the file's chunks in order.
import type pg from 'pg';
import type { Principal } from '../../../auth/principal.js';
import { notFound } from '../../../errors.js';
import { isWellFormedId, type IdKind } from '../../../ids.js';
import { sqlSelectOf } from '../../kit/field-sql.js';
import { listPage, type ListSource } from '../../kit/list-query.js';
import type { Page } from '../../kit/page.js';

export interface FileJobTable<T> {
  table: ListSource<T>['table'];
  type: ListSource<T>['type'];
  list: ListSource<T>['list'];
  idKind: IdKind;
  /** The condition on the table's rows a caller may see; none: every row of its organization. */
  visibleTo(principal: Principal): ListSource<T>['narrow'];
}

export interface FileJobReads<T> {
  list(principal: Principal, args: unknown): Promise<Page<T>>;
  /** A record the caller may see; another is 404, as another organization's. */
  get(principal: Principal, id: string): Promise<T>;
}

export function fileJobReads<T>(pool: pg.Pool, job: FileJobTable<T>): FileJobReads<T> {
  const { table, type, list, idKind, visibleTo } = job;
  const select = sqlSelectOf(type, table);
  return {
    list: (principal, args) => listPage(pool, { table, type, list, narrow: visibleTo(principal) }, principal, args),
    async get(principal, id) {
      if (!isWellFormedId(idKind, id)) throw notFound(table);
      const visible = visibleTo(principal);
      const { rows } = await pool.query<T & pg.QueryResultRow>(
        `select ${select} from "${table}" where id = $1 and "organizationId" = $2${visible ? ` and ${visible.where('$3')}` : ''}`,
        visible ? [id, principal.organizationId, visible.value] : [id, principal.organizationId],
      );
      if (!rows[0]) throw notFound(table);
      return rows[0];
    },
  };
}

/** A file's chunks ("<table>Chunk" rows by seq), `perRead` a query: never the whole file in memory. */
export async function* fileChunks(
  db: pg.Pool,
  table: 'Export' | 'Import',
  id: string,
  perRead: number,
): AsyncGenerator<Buffer> {
  const owner = `${table.toLowerCase()}Id`;
  for (let after = -1; ;) {
    const { rows } = await db.query<{ seq: number; data: Buffer }>(
      `select seq, data from "${table}Chunk" where "${owner}" = $1 and seq > $2 order by seq limit ${perRead}`,
      [id, after],
    );
    for (const row of rows) yield row.data;
    if (rows.length < perRead) return;
    after = rows.at(-1)!.seq;
  }
}
