// The table a declared resource lives in, as its declaration says, and the SQL
// that makes each part of it. The declaration and the migrations are the table's
// whole definition (prisma/schema.prisma holds only what the Prisma client reads):
// declared-schema.ts compares a migrated database with this, so a migration that
// forgets a part fails test/migrations.test.ts, and `npm run migration:create`
// writes the SQL of each part that is missing.
//
// The parts: the kit's columns (id, organizationId, createdAt, updatedAt); a
// column per public field (its kind's column type, nullable as the field; the
// lifecycle field defaults to the initial state, a list (an array, JSONB) to empty); the index the
// lists page by; a unique index per unique field (named `_<field>_`, which is how
// the service tells whose 409 it is); a foreign key per reference (ON DELETE as
// declared, default RESTRICT) with an index; the count triggers of list totals;
// and per text search the trigram index of exactly its expression.
import { quoteIdentifier } from '../../db/database-url.js';
import { publicFieldsOf } from './fields.js';
import type { OnDelete } from './references.js';
import type { Resource } from './resource.js';

export interface DeclaredColumn {
  name: string;
  /** As CREATE TABLE takes it: TEXT, TIMESTAMPTZ(3). */
  type: string;
  nullable: boolean;
  /** An SQL expression. */
  default?: string;
}

export interface DeclaredForeignKey {
  field: string;
  table: string;
  onDelete: OnDelete;
}

export interface DeclaredSearch {
  /** The index's name: `<Table>_search_idx` for `q`. */
  index: string;
  /** The filter's SQL expression (kit/list.ts searchOver). */
  expression: string;
  /** The stored generated column holding the expression lowered, which the index and the filter read. */
  column: string;
}

export interface DeclaredTable {
  table: string;
  columns: DeclaredColumn[];
  /** Fields unique within the organization. */
  unique: string[];
  /** The organization's key, then one per reference. */
  foreignKeys: DeclaredForeignKey[];
  /** Reference fields: each indexed, for deletes of what they name and the inverse relation's pages. */
  indexedReferences: string[];
  searches: DeclaredSearch[];
}

const TIMESTAMP = 'TIMESTAMPTZ(3)';

/** What the kit reads and writes in every table besides the fields: the id, the tenant, the times. */
const KIT_COLUMNS: DeclaredColumn[] = [
  { name: 'id', type: 'TEXT', nullable: false },
  { name: 'organizationId', type: 'TEXT', nullable: false },
  { name: 'createdAt', type: TIMESTAMP, nullable: false, default: 'now()' },
  { name: 'updatedAt', type: TIMESTAMP, nullable: false, default: 'now()' },
];

/** The columns lists page by: the kit's default order, within the organization. */
export const PAGING_COLUMNS = ['organizationId', 'createdAt', 'id'];

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The table the declaration describes. */
export function declaredTable(resource: Resource): DeclaredTable {
  const table = resource.table;
  const kitColumns = new Set(KIT_COLUMNS.map((column) => column.name));
  const fieldColumns = publicFieldsOf(resource.type)
    .filter(({ name, kind }) => kind.column !== null && !kitColumns.has(name))
    .map(({ name, kind, nullable }): DeclaredColumn => {
      const type = kind.column!;
      const initial = resource.lifecycle?.field === name ? literal(resource.lifecycle.initial) : undefined;
      const list = type.endsWith('[]') ? `ARRAY[]::${type}` : type === 'JSONB' ? `'[]'::jsonb` : undefined;
      const empty = nullable ? undefined : list;
      return { name, type, nullable, default: initial ?? empty };
    });
  const columns = [...KIT_COLUMNS, ...fieldColumns];
  const references = Object.entries(resource.references ?? {}).map(([field, reference]): DeclaredForeignKey => {
    const { onDelete } = reference;
    if (onDelete === 'set null' && !columns.find((column) => column.name === field)?.nullable) {
      throw new Error(`${table}.${field}: ON DELETE SET NULL needs a nullable field`);
    }
    return { field, table: reference.target.table, onDelete };
  });
  const searches = Object.entries(resource.list.filters).flatMap(([name, filter]) =>
    filter.searched === undefined
      ? []
      : [
          {
            index: name === 'q' ? `${table}_search_idx` : `${table}_${name}_search_idx`,
            expression: filter.searched.expression,
            column: filter.searched.column,
          },
        ],
  );
  for (const { column } of searches) {
    if (columns.some(({ name }) => name === column))
      throw new Error(`${table}.${column}: a field and a search's column`);
  }
  return {
    table,
    columns,
    unique: Object.keys(resource.unique ?? {}),
    foreignKeys: [{ field: 'organizationId', table: 'Organization', onDelete: 'cascade' }, ...references],
    indexedReferences: references.map((reference) => reference.field),
    searches,
  };
}

/** A quoted identifier. */
export const ident = quoteIdentifier;

const columnList = (columns: string[]) => columns.map(ident).join(', ');

export function columnDefinition({ name, type, nullable, default: initial }: DeclaredColumn): string {
  return [ident(name), type, nullable ? '' : 'NOT NULL', initial ? `DEFAULT ${initial}` : ''].filter(Boolean).join(' ');
}

export function createTableSql({ table, columns }: DeclaredTable): string {
  const lines = [...columns.map(columnDefinition), `CONSTRAINT ${ident(`${table}_pkey`)} PRIMARY KEY ("id")`];
  return `CREATE TABLE ${ident(table)} (\n    ${lines.join(',\n    ')}\n);`;
}

export function addColumnSql(table: string, column: DeclaredColumn): string {
  const add = `ALTER TABLE ${ident(table)} ADD COLUMN ${columnDefinition(column)};`;
  if (column.nullable || column.default) return add;
  return `-- NOT NULL without a default: fails while ${ident(table)} has rows: give them a value first.\n${add}`;
}

export const alterTypeSql = (table: string, { name, type }: DeclaredColumn) =>
  `ALTER TABLE ${ident(table)} ALTER COLUMN ${ident(name)} TYPE ${type} USING ${ident(name)}::${type};`;

export function nullabilitySql(table: string, { name, nullable }: DeclaredColumn): string {
  if (nullable) return `ALTER TABLE ${ident(table)} ALTER COLUMN ${ident(name)} DROP NOT NULL;`;
  return (
    `-- Fails while rows hold null: give them a value first.\n` +
    `ALTER TABLE ${ident(table)} ALTER COLUMN ${ident(name)} SET NOT NULL;`
  );
}

export const pagingIndexSql = (table: string) =>
  `CREATE INDEX ${ident(`${table}_${PAGING_COLUMNS.join('_')}_idx`)} ON ${ident(table)}(${columnList(PAGING_COLUMNS)});`;

export const uniqueIndexName = (table: string, field: string) => `${table}_organizationId_${field}_key`;

export const uniqueIndexSql = (table: string, field: string) =>
  `CREATE UNIQUE INDEX ${ident(uniqueIndexName(table, field))} ON ${ident(table)}(${columnList(['organizationId', field])});`;

export const referenceIndexSql = (table: string, field: string) =>
  `CREATE INDEX ${ident(`${table}_${field}_idx`)} ON ${ident(table)}(${ident(field)});`;

export const foreignKeyName = (table: string, field: string) => `${table}_${field}_fkey`;

export const foreignKeySql = (table: string, { field, table: target, onDelete }: DeclaredForeignKey) =>
  `ALTER TABLE ${ident(table)} ADD CONSTRAINT ${ident(foreignKeyName(table, field))} FOREIGN KEY (${ident(field)}) ` +
  `REFERENCES ${ident(target)}("id") ON DELETE ${onDelete.toUpperCase()};`;

/** The triggers that keep RecordCount (list totals), by the names kit_count_rows gives them. */
export const COUNT_TRIGGERS = {
  inserted: { event: 'INSERT', transition: 'NEW', function: 'kit_count_inserted' },
  deleted: { event: 'DELETE', transition: 'OLD', function: 'kit_count_deleted' },
} as const;

export const countTriggerName = (table: string, change: keyof typeof COUNT_TRIGGERS) => `${table}_count_${change}`;

/** Both triggers, and the table's rows counted once (the migration of record counts defines it). */
export const countTriggersSql = (table: string) => `SELECT kit_count_rows(${literal(table)});`;

/** One of the two (the other exists, so its rows are counted already). */
export function countTriggerSql(table: string, change: keyof typeof COUNT_TRIGGERS): string {
  const { event, transition, function: name } = COUNT_TRIGGERS[change];
  return (
    `CREATE TRIGGER ${ident(countTriggerName(table, change))} AFTER ${event} ON ${ident(table)} ` +
    `REFERENCING ${transition} TABLE AS kit_changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}();`
  );
}

/** The trigram GIN index a search reads: the organization, then the search's lowered column. */
export const searchIndexMethod = (column: string) => `USING gin ("organizationId", ${ident(column)} gin_trgm_ops)`;

export const searchIndexSql = (table: string, { index, column }: DeclaredSearch) =>
  `CREATE INDEX ${ident(index)} ON ${ident(table)} ${searchIndexMethod(column)};`;

/** What a search's column is generated as: the filter's expression, lowered (LIKE on it is ILIKE on the expression). */
export const searchGeneration = (expression: string) => `lower(${expression})`;

/** The search's column; on a table with rows, PostgreSQL computes it for each row (a rewrite of the table). */
export const searchColumnSql = (table: string, { column, expression }: DeclaredSearch) =>
  `ALTER TABLE ${ident(table)} ADD COLUMN ${ident(column)} TEXT GENERATED ALWAYS AS (${searchGeneration(expression)}) STORED;`;
