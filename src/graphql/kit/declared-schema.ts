// Reads a migrated database and compares it with the declared resources'
// tables (declared-table.ts). Each gap says what is missing or differs and the
// SQL that adds it: test/migrations.test.ts fails on any gap with that SQL, and
// `npm run migration:create` writes it into the new migration.
import type pg from 'pg';
import {
  baseTypeNames,
  generatedExpressionOn,
  indexDefinitionOn,
  readTable,
  usingClause,
  type TableFound,
} from '../../db/table-catalog.js';
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
  searchColumnSql,
  searchGeneration,
  searchIndexMethod,
  searchIndexSql,
  uniqueIndexName,
  uniqueIndexSql,
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

const gapOf = (table: string, step: SchemaGap['step'], problem: string, sql: string): SchemaGap => ({
  table,
  step,
  problem,
  sql,
});

async function tableGaps(db: pg.ClientBase, declared: DeclaredTable): Promise<SchemaGap[]> {
  const found = await readTable(db, declared.table);
  return [
    ...(found
      ? await columnGaps(db, declared, found)
      : [gapOf(declared.table, 'table', 'the table is missing', createTableSql(declared))]),
    ...indexGaps(declared, found),
    ...foreignKeyGaps(declared, found),
    ...countTriggerGaps(declared.table, found),
    ...(await searchGaps(db, declared, found)),
  ];
}

/** The index lists page by, each unique field's, each reference's. */
function indexGaps({ table, unique, indexedReferences }: DeclaredTable, found?: TableFound): SchemaGap[] {
  const gaps: SchemaGap[] = [];
  const indexes = (found?.indexes ?? []).filter((index) => !index.partial);
  const btreeFrom = (columns: string[]) =>
    indexes.some((index) => index.method === 'btree' && columns.every((column, i) => index.columns[i] === column));
  if (!btreeFrom(PAGING_COLUMNS)) {
    const columns = PAGING_COLUMNS.map(ident).join(', ');
    gaps.push(gapOf(table, 'index', `no index on (${columns}) for its lists' pages`, pagingIndexSql(table)));
  }
  for (const field of unique) {
    const index = indexes.find(
      ({ unique, columns }) =>
        unique && columns.length === 2 && columns.includes('organizationId') && columns.includes(field),
    );
    if (!index) {
      gaps.push(
        gapOf(table, 'index', `no unique index on ("organizationId", "${field}")`, uniqueIndexSql(table, field)),
      );
    } else if (!index.name.includes(`_${field}_`)) {
      const problem = `the unique index ${ident(index.name)} does not name "${field}" as _${field}_ (the 409 finds the field by it)`;
      const sql = `ALTER INDEX ${ident(index.name)} RENAME TO ${ident(uniqueIndexName(table, field))};`;
      gaps.push(gapOf(table, 'index', problem, sql));
    }
  }
  for (const field of indexedReferences) {
    if (!btreeFrom([field]) && !btreeFrom(['organizationId', field])) {
      gaps.push(gapOf(table, 'index', `no index on "${field}" (a reference)`, referenceIndexSql(table, field)));
    }
  }
  return gaps;
}

/** The organization's key and each reference's, named so the service can tell the field of a refusal. */
function foreignKeyGaps({ table, foreignKeys }: DeclaredTable, found?: TableFound): SchemaGap[] {
  return foreignKeys.flatMap((key) => {
    const existing = found?.foreignKeys.find(
      ({ columns, target }) => columns.length === 1 && columns[0] === key.field && target === key.table,
    );
    if (!existing) {
      return [
        gapOf(table, 'key', `no foreign key from "${key.field}" to ${ident(key.table)}`, foreignKeySql(table, key)),
      ];
    }
    if (existing.onDelete !== key.onDelete) {
      const problem = `the foreign key ${ident(existing.name)} deletes ON DELETE ${existing.onDelete.toUpperCase()}, the declaration says ${key.onDelete.toUpperCase()}`;
      const sql = `ALTER TABLE ${ident(table)} DROP CONSTRAINT ${ident(existing.name)};\n${foreignKeySql(table, key)}`;
      return [gapOf(table, 'key', problem, sql)];
    }
    if (existing.name.includes(`_${key.field}_`)) return [];
    const problem = `the foreign key ${ident(existing.name)} does not name "${key.field}" as _${key.field}_ (the 400 finds the field by it)`;
    const sql = `ALTER TABLE ${ident(table)} RENAME CONSTRAINT ${ident(existing.name)} TO ${ident(foreignKeyName(table, key.field))};`;
    return [gapOf(table, 'key', problem, sql)];
  });
}

/** Both count triggers (kit_count_rows), or the one missing. */
function countTriggerGaps(table: string, found?: TableFound): SchemaGap[] {
  const missing = (Object.keys(COUNT_TRIGGERS) as (keyof typeof COUNT_TRIGGERS)[]).filter(
    (change) => found?.triggers.get(countTriggerName(table, change)) !== COUNT_TRIGGERS[change].function,
  );
  if (missing.length === 2)
    return [gapOf(table, 'trigger', 'no count triggers (list totals)', countTriggersSql(table))];
  return missing.map((change) =>
    gapOf(
      table,
      'trigger',
      `no ${countTriggerName(table, change)} trigger (list totals)`,
      countTriggerSql(table, change),
    ),
  );
}

/**
 * Each search's stored lowered column, generated as exactly its expression, and
 * its trigram index on that column (an index or a column of another is replaced:
 * PostgreSQL 15 cannot change a generated column's expression in place).
 */
async function searchGaps(db: pg.ClientBase, { table, searches }: DeclaredTable, found?: TableFound) {
  const gaps: SchemaGap[] = [];
  for (const search of searches) {
    const replaced = found?.indexes.some((index) => index.name === search.index);
    const dropIndex = replaced ? `DROP INDEX ${ident(search.index)};\n` : '';
    const generation = searchGeneration(search.expression);
    const column = found?.columns.get(search.column);
    const expected = found && (await generatedExpressionOn(db, table, found.schema, generation));
    if (!found || !column || column.generated === null || column.generated !== expected) {
      const problem = `no column ${ident(search.column)} generated as ${generation} for its text search`;
      const dropColumn = column ? `ALTER TABLE ${ident(table)} DROP COLUMN ${ident(search.column)};\n` : '';
      // Analyzed: without the new column's statistics the planner takes a common word for a rare one.
      const analyze = `ANALYZE ${ident(table)};`;
      const sql = `${dropIndex}${dropColumn}${searchColumnSql(table, search)}\n${searchIndexSql(table, search)}\n${analyze}`;
      gaps.push(gapOf(table, 'search', problem, sql));
      continue;
    }
    const definition = await indexDefinitionOn(db, table, found.schema, searchIndexMethod(search.column));
    if (definition && found.indexes.some((index) => usingClause(index.definition) === definition)) continue;
    const problem = `no trigram index on ("organizationId", ${ident(search.column)}) for its text search`;
    gaps.push(gapOf(table, 'search', problem, `${dropIndex}${searchIndexSql(table, search)}`));
  }
  return gaps;
}

async function columnGaps(db: pg.ClientBase, declared: DeclaredTable, found: TableFound): Promise<SchemaGap[]> {
  const { table, columns } = declared;
  const baseTypes = await baseTypeNames(
    db,
    columns.map((column) => column.type),
  );
  const gaps: SchemaGap[] = [];
  const gap = (problem: string, sql: string) => gaps.push(gapOf(table, 'column', problem, sql));
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
