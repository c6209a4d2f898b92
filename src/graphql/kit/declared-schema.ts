// Reads a migrated database and compares it with the declared resources'
// tables (declared-table.ts). Each gap says what is missing or differs and the
// SQL that adds it: test/migrations.test.ts fails on any gap with that SQL, and
// `npm run migration:create` writes it into the new migration.
import type pg from 'pg';
import {
  COUNT_TRIGGERS,
  PAGING_COLUMNS,
  addColumnSql,
  alterTypeSql,
  countTriggerName,
  countTriggerSql,
  countTriggersSql,
  createTableSql,
  declaredTable,
  foreignKeyName,
  foreignKeySql,
  ident,
  nullabilitySql,
  pagingIndexSql,
  referenceIndexSql,
  searchIndexMethod,
  searchIndexSql,
  uniqueIndexName,
  uniqueIndexSql,
  type DeclaredColumn,
  type DeclaredSearch,
  type DeclaredTable,
} from './declared-table.js';
import type { Resource } from './resource.js';

/** The order a migration makes them in: keys after every new table they may name, searches last. */
const STEPS = ['table', 'column', 'index', 'key', 'trigger', 'search'] as const;

export interface SchemaGap {
  table: string;
  step: (typeof STEPS)[number];
  /** What is missing or differs. */
  problem: string;
  /** The SQL that adds it. */
  sql: string;
}

interface ColumnFound {
  /** As PostgreSQL names it, without its modifier: 'timestamp with time zone'. */
  baseType: string;
  type: string;
  nullable: boolean;
}

interface IndexFound {
  name: string;
  method: string;
  unique: boolean;
  partial: boolean;
  /** Key columns in order; null for an expression. */
  columns: (string | null)[];
  definition: string;
}

interface TableFound {
  schema: string;
  columns: Map<string, ColumnFound>;
  indexes: IndexFound[];
  foreignKeys: { name: string; columns: string[]; target: string }[];
  /** Trigger name -> its function's name. */
  triggers: Map<string, string>;
}

/** Every gap between the database and the tables of `resources`. */
export async function declaredSchemaGaps(db: pg.ClientBase, resources: Iterable<Resource>): Promise<SchemaGap[]> {
  const gaps: SchemaGap[] = [];
  for (const resource of resources) gaps.push(...(await tableGaps(db, declaredTable(resource))));
  return gaps;
}

/** The gaps as a message: each table's problems, each with its SQL. */
export function describeGaps(gaps: SchemaGap[]): string {
  return gaps.map(({ table, problem, sql }) => `${table}: ${problem}. Add to a migration:\n  ${sql}`).join('\n');
}

/** The gaps' SQL in the order a migration runs it, each after a comment saying why. */
export function migrationSqlOf(gaps: SchemaGap[]): string {
  const ordered = [...gaps].sort((a, b) => STEPS.indexOf(a.step) - STEPS.indexOf(b.step));
  const script = ordered.map(({ table, problem, sql }) => `-- ${table}: ${problem}\n${sql}\n`).join('\n');
  // The migration runner splits a script at every semicolon, in comments too.
  return script.replace(/^--.*$/gm, (comment) => comment.replaceAll(';', ','));
}

async function tableGaps(db: pg.ClientBase, declared: DeclaredTable): Promise<SchemaGap[]> {
  const { table } = declared;
  const found = await readTable(db, table);
  const gaps: SchemaGap[] = [];
  const gap = (step: SchemaGap['step'], problem: string, sql: string) => gaps.push({ table, step, problem, sql });
  if (!found) gap('table', 'the table is missing', createTableSql(declared));
  else gaps.push(...(await columnGaps(db, declared, found)));
  const indexes = (found?.indexes ?? []).filter((index) => !index.partial);
  const btreeFrom = (columns: string[]) =>
    indexes.some((index) => index.method === 'btree' && columns.every((column, i) => index.columns[i] === column));

  if (!btreeFrom(PAGING_COLUMNS)) {
    gap('index', `no index on (${PAGING_COLUMNS.map(ident).join(', ')}) for its lists' pages`, pagingIndexSql(table));
  }
  for (const field of declared.unique) {
    const index = indexes.find(
      ({ unique, columns }) =>
        unique && columns.length === 2 && columns.includes('organizationId') && columns.includes(field),
    );
    if (!index) gap('index', `no unique index on ("organizationId", "${field}")`, uniqueIndexSql(table, field));
    else if (!index.name.includes(`_${field}_`)) {
      gap(
        'index',
        `the unique index ${ident(index.name)} does not name "${field}" as _${field}_ (the 409 finds the field by it)`,
        `ALTER INDEX ${ident(index.name)} RENAME TO ${ident(uniqueIndexName(table, field))};`,
      );
    }
  }
  for (const key of declared.foreignKeys) {
    const existing = found?.foreignKeys.find(
      ({ columns, target }) => columns.length === 1 && columns[0] === key.field && target === key.table,
    );
    if (!existing) {
      gap('key', `no foreign key from "${key.field}" to ${ident(key.table)}`, foreignKeySql(table, key));
    } else if (!existing.name.includes(`_${key.field}_`)) {
      gap(
        'key',
        `the foreign key ${ident(existing.name)} does not name "${key.field}" as _${key.field}_ (the 400 finds the field by it)`,
        `ALTER TABLE ${ident(table)} RENAME CONSTRAINT ${ident(existing.name)} TO ${ident(foreignKeyName(table, key.field))};`,
      );
    }
  }
  for (const field of declared.indexedReferences) {
    if (!btreeFrom([field]) && !btreeFrom(['organizationId', field])) {
      gap('index', `no index on "${field}" (a reference)`, referenceIndexSql(table, field));
    }
  }
  const missingTriggers = (Object.keys(COUNT_TRIGGERS) as (keyof typeof COUNT_TRIGGERS)[]).filter(
    (change) => found?.triggers.get(countTriggerName(table, change)) !== COUNT_TRIGGERS[change].function,
  );
  if (missingTriggers.length === 2) gap('trigger', 'no count triggers (list totals)', countTriggersSql(table));
  for (const change of missingTriggers.length === 1 ? missingTriggers : []) {
    gap('trigger', `no ${countTriggerName(table, change)} trigger (list totals)`, countTriggerSql(table, change));
  }
  for (const search of declared.searches) {
    const definition = found && (await searchIndexDefinition(db, table, found.schema, search));
    if (definition && found.indexes.some((index) => usingClause(index.definition) === definition)) continue;
    const replaced = found?.indexes.some((index) => index.name === search.index);
    gap(
      'search',
      `no trigram index on ("organizationId", ${search.expression}) for its text search`,
      `${replaced ? `DROP INDEX ${ident(search.index)};\n` : ''}${searchIndexSql(table, search)}`,
    );
  }
  return gaps;
}

async function columnGaps(db: pg.ClientBase, declared: DeclaredTable, found: TableFound): Promise<SchemaGap[]> {
  const { table, columns } = declared;
  const baseTypes = await baseTypesOf(db, columns);
  const gaps: SchemaGap[] = [];
  const gap = (problem: string, sql: string) => gaps.push({ table, step: 'column', problem, sql });
  for (const column of columns) {
    const actual = found.columns.get(column.name);
    if (!actual) {
      gap(`no column "${column.name}"`, addColumnSql(table, column));
      continue;
    }
    if (!sameType(baseTypes.get(column.type)!, actual.baseType)) {
      gap(`column "${column.name}" is ${actual.type}, declared ${column.type}`, alterTypeSql(table, column));
    }
    if (column.nullable !== actual.nullable) {
      const nullability = (nullable: boolean) => (nullable ? 'nullable' : 'NOT NULL');
      gap(
        `column "${column.name}" is ${nullability(actual.nullable)}, declared ${nullability(column.nullable)}`,
        nullabilitySql(table, column),
      );
    }
  }
  return gaps;
}

/** A bounded text column reads as text does. */
const sameType = (declared: string, actual: string) =>
  declared === actual || (declared === 'text' && actual === 'character varying');

/** PostgreSQL's name of each declared type without its modifier: TIMESTAMPTZ(3) is 'timestamp with time zone'. */
async function baseTypesOf(db: pg.ClientBase, columns: DeclaredColumn[]): Promise<Map<string, string>> {
  const types = [...new Set(columns.map((column) => column.type))];
  const { rows } = await db.query<{ declared: string; base: string }>(
    `select declared, format_type(declared::regtype, null) as base from unnest($1::text[]) as declared`,
    [types],
  );
  return new Map(rows.map((row) => [row.declared, row.base]));
}

async function readTable(db: pg.ClientBase, table: string): Promise<TableFound | undefined> {
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
            format_type(atttypid, atttypmod) as type, not attnotnull as nullable
     from pg_attribute where attrelid = $1::oid and attnum > 0 and not attisdropped`,
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
  const foreignKeys = await db.query<{ name: string; columns: string[]; target: string }>(
    `select con.conname::text as name, t.relname::text as target,
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
const usingClause = (definition: string) => definition.slice(definition.indexOf(' USING '));

/**
 * The search index as PostgreSQL would define it, to compare with the table's
 * indexes: built on an empty copy of the table, in a transaction rolled back
 * (PostgreSQL writes the expression in its own form, whatever way the
 * migration spelled it). Undefined when it cannot be built (a column missing).
 */
async function searchIndexDefinition(
  db: pg.ClientBase,
  table: string,
  schema: string,
  search: DeclaredSearch,
): Promise<string | undefined> {
  await db.query('begin');
  try {
    // Named as the table, in pg_temp, so the expression's "Table".column names resolve to the copy.
    await db.query(`create temp table ${ident(table)} (like ${ident(schema)}.${ident(table)})`);
    await db.query(`create index kit_search_probe on pg_temp.${ident(table)} ${searchIndexMethod(search.expression)}`);
    const { rows } = await db.query<{ definition: string }>(
      `select pg_get_indexdef('pg_temp.kit_search_probe'::regclass) as definition`,
    );
    return usingClause(rows[0]!.definition);
  } catch {
    return undefined;
  } finally {
    await db.query('rollback');
  }
}
