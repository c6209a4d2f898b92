// A declared type's fields as SQL: a field's column or computed expression over
// a table, and the SELECT list that yields the public object straight from
// PostgreSQL (the lists' fast path, the store's RETURNING).
import { publicFieldsOf, type PublicType } from './fields.js';

/** `"Table".column` for a field name: qualified, so ORDER BY reads the column, not a formatted output. */
export function qualifiedColumn(table: string, name: string): string {
  return `"${table}"."${name}"`;
}

const selects = new Map<string, string>();

/** One public field's SQL over `table`, as the select list computes it (a column, or a computed expression). */
export function fieldSqlOf(type: PublicType, name: string, table: string): string {
  const field = publicFieldsOf(type).find((candidate) => candidate.name === name);
  if (!field) throw new Error(`${type.name} has no public field ${name}`);
  return field.kind.sql(qualifiedColumn(table, name), table);
}

/** Each public field's item of the SELECT list, in order, by the field's name. */
export function sqlSelectItemsOf(type: PublicType, table: string): { name: string; sql: string }[] {
  return publicFieldsOf(type).map(({ name, kind }) => {
    const expression = kind.sql(qualifiedColumn(table, name), table);
    return { name, sql: expression === qualifiedColumn(table, name) ? expression : `${expression} as "${name}"` };
  });
}

/** The SELECT list that yields the public object straight from PostgreSQL. */
export function sqlSelectOf(type: PublicType, table: string): string {
  const cacheKey = `${type.name}\u0000${table}`;
  let select = selects.get(cacheKey);
  if (select === undefined) {
    select = sqlSelectItemsOf(type, table)
      .map((item) => item.sql)
      .join(', ');
    selects.set(cacheKey, select);
  }
  return select;
}
