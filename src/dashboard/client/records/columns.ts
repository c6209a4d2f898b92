// Which fields a list shows as columns: chosen from the catalogue (the name,
// the records it refers to, its state, amounts and dates, in the declaration's
// order, then when it was created), or, for a few resources where that choice
// is not the one a person wants, the fields named here. A resource not named
// here still gets sensible columns: this table only prefers.
import type { CatalogueField, CatalogueResource } from './catalogue.js';
import { isLongText } from './catalogue.js';

interface Preference {
  /** The fields after the name column, in order. */
  columns: string[];
  /** What sorts the name column, when not its first field (a person by last name). */
  nameSort?: string;
}

export const COLUMN_PREFERENCES: Record<string, Preference> = {
  contacts: { columns: ['email', 'company', 'createdAt'], nameSort: 'lastName' },
  employees: { columns: ['email', 'jobTitle', 'department', 'status', 'startDate', 'createdAt'], nameSort: 'lastName' },
  invoices: { columns: ['contactId', 'issueDate', 'dueDate', 'total', 'amountDue', 'status', 'createdAt'] },
  'credit-notes': { columns: ['invoiceId', 'contactId', 'total', 'status', 'issuedAt', 'createdAt'] },
};

/** Columns a list never shows on its own: ids, long texts, objects, and bookkeeping. */
function shownByDefault(entry: CatalogueResource, field: CatalogueField): boolean {
  if (field.kind === 'object' || field.kind === 'objects' || field.kind === 'idList') return false;
  if (field.kind === 'id' && !entry.references.some((reference) => reference.field === field.name)) return false;
  if (isLongText(field) || /url$/i.test(field.name)) return false;
  if (field.name === 'updatedAt' || field.name === 'createdAt') return false;
  // The currency is shown with each amount.
  if (field.name === 'currency' && entry.fields.some((other) => other.kind === 'money')) return false;
  return true;
}

const MOST = 6;

export interface ColumnPlan {
  /** The fields of the name column (none: the record has no name of its own). */
  name?: { fields: string[]; sort?: string };
  fields: CatalogueField[];
}

export function columnsOf(entry: CatalogueResource): ColumnPlan {
  const named = entry.label[0] ?? [];
  const sortable = (field: string | undefined) =>
    field !== undefined && entry.graphql.sortValues.includes(field) ? field : undefined;
  const preference = COLUMN_PREFERENCES[entry.key];
  const byName = new Map(entry.fields.map((field) => [field.name, field]));
  const name = named.length ? { fields: named, sort: sortable(preference?.nameSort ?? named[0]) } : undefined;
  if (preference) {
    return { name, fields: preference.columns.flatMap((column) => byName.get(column) ?? []) };
  }
  const state = entry.lifecycle?.field;
  let fields = entry.fields.filter((field) => !named.includes(field.name) && shownByDefault(entry, field));
  // The state always; the rest in order, as many as fit.
  if (fields.length > MOST) {
    const kept = fields.filter((field) => field.name !== state).slice(0, state ? MOST - 1 : MOST);
    fields = fields.filter((field) => kept.includes(field) || field.name === state);
  }
  const created = byName.get('createdAt');
  return { name, fields: created ? [...fields, created] : fields };
}
