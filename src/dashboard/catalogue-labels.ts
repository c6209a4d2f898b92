// How the dashboard names a record of a resource (a heading, a link, a picker
// option): the fields its name is made of, from its declaration's label.
import { FIELD_KINDS, publicFieldsOf } from '../graphql/kit/fields.js';
import { labelOf } from '../graphql/kit/labels.js';
import type { Resource } from '../graphql/kit/resource.js';

/**
 * How the records of a resource whose declared label is SQL (labels.ts) are
 * named from their fields: the first group with a value (a contact without a
 * name is named by its email). A label declared without an entry here is named
 * by the columns its SQL reads, all of them (test/dashboard-catalogue.test.ts
 * checks each entry against its declaration).
 */
export const LABEL_FIELDS: Record<string, string[][]> = {
  contacts: [['firstName', 'lastName'], ['email']],
  employees: [['firstName', 'lastName']],
};

/** Text fields that name a record when its declaration says nothing (labels.ts's name and number first). */
const NAMING_FIELDS = ['name', 'number', 'title', 'code'];

/** The columns a label's SQL reads, in order: `"t"."firstName"` -> firstName. */
function sqlColumns(sql: string, alias: string): string[] {
  const columns = [...sql.matchAll(new RegExp(`"${alias}"\\."?([A-Za-z_]\\w*)"?`, 'g'))].map((m) => m[1]!);
  return [...new Set(columns)];
}

export function labelFields(key: string, resource: Resource): string[][] {
  if (LABEL_FIELDS[key]) return LABEL_FIELDS[key];
  if (resource.label) return [sqlColumns(resource.label.sql('_label'), '_label')];
  const label = labelOf(resource);
  if (label) return [[label.word]];
  const fields = publicFieldsOf(resource.type);
  const naming = NAMING_FIELDS.find((name) =>
    fields.some((field) => field.name === name && field.kind === FIELD_KINDS.text && !field.scope),
  );
  return naming ? [[naming]] : [];
}
