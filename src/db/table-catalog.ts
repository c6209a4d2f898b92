// A table as PostgreSQL holds it, read from its catalog: columns (type,
// nullability), indexes (method, key columns, definition), foreign keys and
// triggers; and how PostgreSQL would write an index, to compare one with those.
// graphql/kit/declared-schema.ts compares the declared resources' tables with it.
import type pg from 'pg';
import { quoteIdentifier } from './database-url.js';

export interface ColumnFound {
  /** As PostgreSQL names it, without its modifier: 'timestamp with time zone'. */
  baseType: string;
  type: string;
  nullable: boolean;
  /** A stored generated column's expression, as PostgreSQL writes it; null for any other column. */
  generated: string | null;
}

export interface IndexFound {
  name: string;
  method: string;
  unique: boolean;
  partial: boolean;
  /** Key columns in order; null for an expression. */
  columns: (string | null)[];
  definition: string;
}

export interface TableFound {
  schema: string;
  columns: Map<string, ColumnFound>;
  indexes: IndexFound[];
  /** onDelete: PostgreSQL's action, as a migration writes it ('restrict', 'cascade', 'set null', 'no action'). */
  foreignKeys: { name: string; columns: string[]; target: string; onDelete: string }[];
  /** Trigger name -> its function's name. */
  triggers: Map<string, string>;
}

/** PostgreSQL's name of each type without its modifier: TIMESTAMPTZ(3) is 'timestamp with time zone'. */
export async function baseTypeNames(db: pg.ClientBase, types: string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ type: string; base: string }>(
    `select type, format_type(type::regtype, null) as base from unnest($1::text[]) as type`,
    [[...new Set(types)]],
  );
  return new Map(rows.map((row) => [row.type, row.base]));
}

/** The table of the current schema named `table`, or undefined when there is none. */
export async function readTable(db: pg.ClientBase, table: string): Promise<TableFound | undefined> {
  const {
    rows: [relation],
  } = await db.query<{ oid: string; schema: string }>(
    `select c.oid::text as oid, n.nspname::text as schema from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relname = $1 and c.relkind in ('r', 'p')`,
    [table],
  );
  if (!relation) return undefined;
  // One after another: a client runs one query at a time.
  const columns = await db.query<ColumnFound & { name: string }>(
    `select attname::text as name, format_type(atttypid, null) as "baseType",
            format_type(atttypid, atttypmod) as type, not attnotnull as nullable,
            case when attgenerated = 's' then pg_get_expr(d.adbin, d.adrelid) end as generated
     from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where attrelid = $1::oid and attnum > 0 and not attisdropped`,
    [relation.oid],
  );
  const indexes = await db.query<IndexFound>(
    `select i.relname::text as name, am.amname::text as method, x.indisunique as unique,
            x.indpred is not null as partial, pg_get_indexdef(x.indexrelid) as definition,
            array(select a.attname::text from unnest(x.indkey::int2[]) with ordinality as k(attnum, n)
                  left join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
                  where k.n <= x.indnkeyatts order by k.n) as columns
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_am am on am.oid = i.relam
     where x.indrelid = $1::oid`,
    [relation.oid],
  );
  const foreignKeys = await db.query<{ name: string; columns: string[]; target: string; onDelete: string }>(
    `select con.conname::text as name, t.relname::text as target,
            case con.confdeltype when 'r' then 'restrict' when 'c' then 'cascade' when 'n' then 'set null'
              when 'd' then 'set default' else 'no action' end as "onDelete",
            array(select a.attname::text from unnest(con.conkey) with ordinality as k(attnum, n)
                  join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.n) as columns
     from pg_constraint con join pg_class t on t.oid = con.confrelid
     where con.conrelid = $1::oid and con.contype = 'f'`,
    [relation.oid],
  );
  const triggers = await db.query<{ name: string; function: string }>(
    `select tg.tgname::text as name, p.proname::text as function
     from pg_trigger tg join pg_proc p on p.oid = tg.tgfoid where tg.tgrelid = $1::oid and not tg.tgisinternal`,
    [relation.oid],
  );
  return {
    schema: relation.schema,
    columns: new Map(columns.rows.map(({ name, ...column }) => [name, column])),
    indexes: indexes.rows,
    foreignKeys: foreignKeys.rows,
    triggers: new Map(triggers.rows.map((row) => [row.name, row.function])),
  };
}

/** An index definition from its access method on: what two indexes of one table must share to be the same. */
export const usingClause = (definition: string) => definition.slice(definition.indexOf(' USING '));

/**
 * How PostgreSQL writes a stored generated column's `expression` on the table,
 * to compare with a column's (ColumnFound.generated): built on an empty copy, as
 * indexDefinitionOn does. Undefined when it cannot be built.
 */
export async function generatedExpressionOn(
  db: pg.ClientBase,
  table: string,
  schema: string,
  expression: string,
): Promise<string | undefined> {
  return onEmptyCopy(db, table, schema, async () => {
    await db.query(
      `alter table pg_temp.${quoteIdentifier(table)} add column kit_generated_probe text generated always as (${expression}) stored`,
    );
    const { rows } = await db.query<{ expression: string }>(
      `select pg_get_expr(d.adbin, d.adrelid) as expression from pg_attrdef d
       join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
       where d.adrelid = 'pg_temp.${quoteIdentifier(table)}'::regclass and a.attname = 'kit_generated_probe'`,
    );
    return rows[0]?.expression;
  });
}

/** `probe` run on an empty copy of the table named as it, in pg_temp, in a transaction rolled back. */
async function onEmptyCopy<T>(
  db: pg.ClientBase,
  table: string,
  schema: string,
  probe: () => Promise<T>,
): Promise<T | undefined> {
  await db.query('begin');
  try {
    // Named as the table, in pg_temp, so the expression's "Table".column names resolve to the copy.
    await db.query(
      `create temp table ${quoteIdentifier(table)} (like ${quoteIdentifier(schema)}.${quoteIdentifier(table)})`,
    );
    return await probe();
  } catch {
    return undefined;
  } finally {
    await db.query('rollback');
  }
}

/**
 * How PostgreSQL defines an index `using` (its method and columns, e.g. `USING
 * gin (...)`) on the table, from the method on, to compare with the table's own
 * indexes: built on an empty copy of the table in a transaction rolled back, since
 * PostgreSQL writes an expression in its own form whatever way a migration
 * spelled it. Undefined when it cannot be built (a column it names is missing).
 */
export async function indexDefinitionOn(
  db: pg.ClientBase,
  table: string,
  schema: string,
  using: string,
): Promise<string | undefined> {
  return onEmptyCopy(db, table, schema, async () => {
    await db.query(`create index kit_index_probe on pg_temp.${quoteIdentifier(table)} ${using}`);
    const { rows } = await db.query<{ definition: string }>(
      `select pg_get_indexdef('pg_temp.kit_index_probe'::regclass) as definition`,
    );
    return usingClause(rows[0]!.definition);
  });
}
