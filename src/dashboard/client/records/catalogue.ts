// The catalogue the page carries (src/dashboard/catalogue.ts writes it, for
// what the viewer may read): every declared resource with its fields, inputs,
// list arguments, relations, lifecycle and actions. The record pages are built
// from it, so a resource the kit adds has its pages with no code here.
import type { Catalogue, CatalogueField, CatalogueResource } from '../../catalogue-shape.js';
import { catalogueLookup, relationSelection } from '../../list-operation.js';
import { pageData } from '../page-data.js';
import { formatDate, humanize } from '../ui.js';

export type { Catalogue, CatalogueField, CatalogueResource } from '../../catalogue-shape.js';
export { labelSelection } from '../../list-operation.js';

export type Row = Record<string, unknown> & { id: string };

export const CATALOGUE: Catalogue = pageData<Catalogue>('catalogue', []);

/** The resource of this key, when the viewer may read it. */
export const resourceOf = catalogueLookup(CATALOGUE);

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "Leave requests", "Contact": the resource's words for a title or a button. */
export const title = (entry: CatalogueResource) => upperFirst(entry.noun[1]);
export const singular = (entry: CatalogueResource) => upperFirst(entry.noun[0]);

/** A field's label: `expectedCloseDate` "Expected close date", a reference `contactId` "Contact". */
export const fieldLabel = (name: string) => humanize(name.endsWith('Id') && name.length > 2 ? name.slice(0, -2) : name);

export const recordPath = (entry: CatalogueResource, id: string) => `${entry.path}/${encodeURIComponent(id)}`;

/** What a record page selects: every field, with its objects, and the records it refers to. */
export function recordSelection(entry: CatalogueResource): string {
  const fields = entry.fields.map((field) => (field.item ? `${field.name} { ${field.item.selection} }` : field.name));
  return [...fields, ...entry.references.map((reference) => relationSelection(reference, resourceOf))]
    .filter(Boolean)
    .join(' ');
}

/** The reference whose id a field holds (`contactId` -> the `contact` relation). */
export const referenceOf = (entry: CatalogueResource, field: string) =>
  entry.references.find((reference) => reference.field === field);

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');

/**
 * A computed field that says in words what a reference beside it links to (an
 * employee's `department` name beside `departmentId`): a record page shows the link only.
 */
export const isShadowed = (entry: CatalogueResource, field: CatalogueField) =>
  field.readOnly === true && entry.references.some((reference) => reference.field === `${field.name}Id`);

/** A record's name: its label fields (the first group with a value), else what it is about. */
export function recordLabel(entry: CatalogueResource, row: Record<string, unknown>): string {
  for (const group of entry.label) {
    const name = group
      .map((field) => text(row[field]))
      .filter(Boolean)
      .join(' ');
    if (name) return name;
  }
  // No name of its own (a leave request): the record it is about, else its first date.
  for (const reference of entry.references) {
    const target = resourceOf(reference.resource);
    const related = row[reference.name] as Record<string, unknown> | null | undefined;
    if (target && related) return `${singular(entry)} · ${recordLabel(target, related)}`;
  }
  const date = entry.fields.find((field) => field.kind === 'date' && row[field.name]);
  if (date) return `${singular(entry)} · ${formatDate(row[date.name] as string)}`;
  return `${singular(entry)} ${text(row.id)}`;
}

/** The field holding the currency of the money fields beside it, if any. */
export const currencyOf = (row: Record<string, unknown>, parent?: Record<string, unknown>) =>
  (typeof row.currency === 'string' && row.currency) ||
  (typeof parent?.currency === 'string' && parent.currency) ||
  undefined;

/** Whether a field is one a person reads as a paragraph (a textarea in a form). */
export const isLongText = (field: Pick<CatalogueField, 'name'>) =>
  /(description|notes|reason|comment|address)$/i.test(field.name);
