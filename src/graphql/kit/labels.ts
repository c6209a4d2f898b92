// How a record names itself where another record refers to it: a contact by its
// first and last name (else its email), an employee by first and last name, a
// department by its name, an invoice by its number. A declaration says it with
// `label` when no `name` or `number` field does. Exports write that name beside
// each declared reference (`contactName` beside `contactId`), read from the
// declarations, so a resource added later is named with no code of its own.
import type { Scope } from '../../auth/scopes.js';
import { FIELD_KINDS, publicFieldsOf } from './fields.js';
import type { Resource } from './resource.js';

export interface Label {
  /** What the name is ('name', 'number'): the reference's column is its stem and this (`contactName`, `invoiceNumber`). */
  word: string;
  /** The name as an SQL expression over the record's row, aliased `alias`. */
  sql(alias: string): string;
}

/** The fields a record is named by when its declaration says nothing, in order of preference. */
const LABEL_FIELDS = ['name', 'number'];

/** The declared label, else a text field `name` or `number`; none: references to it carry no name. */
export function labelOf(resource: Resource): Label | undefined {
  if (resource.label) return resource.label;
  const fields = publicFieldsOf(resource.type);
  const field = LABEL_FIELDS.map((word) => fields.find((f) => f.name === word)).find(
    (f) => f !== undefined && f.kind === FIELD_KINDS.text && !f.scope,
  );
  return field && { word: field.name, sql: (alias) => `"${alias}"."${field.name}"` };
}

/** The name of the record a reference names, beside the reference's field. */
export interface ReferenceName {
  /** The reference (`contactId`). */
  field: string;
  /** The name's field (`contactName`). */
  name: string;
  /** The field's scope, if any: the name is seen only with it too. */
  scope?: Scope;
  /** The SELECT item over the referring row's table: the name, or null when the field is. */
  sql(table: string): string;
}

const upperFirst = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/**
 * A name for each declared reference whose target has a label, unless the
 * resource already has a field of that name (an employee's `department`
 * stays as it is; `departmentName` is added beside `departmentId`).
 */
export function referenceNamesOf(resource: Resource): ReferenceName[] {
  const fields = publicFieldsOf(resource.type);
  return Object.entries(resource.references).flatMap(([field, reference]) => {
    const label = labelOf(reference.target);
    if (!label) return [];
    const stem = field.endsWith('Id') ? field.slice(0, -2) : reference.name;
    const name = `${stem}${upperFirst(label.word)}`;
    if (fields.some((f) => f.name === name)) return [];
    const scope = fields.find((f) => f.name === field)?.scope;
    const target = reference.target.table;
    return [
      {
        field,
        name,
        ...(scope && { scope }),
        // The organization is checked too: an id of another organization never names anything here.
        sql: (table: string) =>
          `(select ${label.sql('_named')} from "${target}" as "_named" where "_named".id = "${table}"."${field}"
            and "_named"."organizationId" = "${table}"."organizationId") as "${name}"`,
      },
    ];
  });
}
