// Reading a job's file (an export's written file, an import's uploaded one): its
// chunks in order, a few at a time.
import type pg from 'pg';

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
