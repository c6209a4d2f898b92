// The catalogue the page carries (src/dashboard/catalogue.ts writes it, for
// what the viewer may read): every declared resource with its fields, inputs,
// list arguments, relations, lifecycle and actions. The record pages are built
// from it, so a resource the kit adds has its pages with no code here.
import type { Catalogue, CatalogueField, CatalogueRelation, CatalogueResource } from '../../catalogue-shape.js';
import { pageData } from '../page-data.js';
import { formatDate, humanize } from '../ui.js';

export type { Catalogue, CatalogueField, CatalogueResource } from '../../catalogue-shape.js';

export type Row = Record<string, unknown> & { id: string };

export const CATALOGUE: Catalogue = pageData<Catalogue>('catalogue', []);

const byKey = new Map(CATALOGUE.map((entry) => [entry.key, entry]));

/** The resource of this key, when the viewer may read it. */
export const resourceOf = (key: string | undefined): CatalogueResource | undefined =>
  key === undefined ? undefined : byKey.get(key);

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "Leave requests", "Contact": the resource's words for a title or a button. */
export const title = (entry: CatalogueResource) => upperFirst(entry.noun[1]);
export const singular = (entry: CatalogueResource) => upperFirst(entry.noun[0]);

/** A field's label: `expectedCloseDate` "Expected close date", a reference `contactId` "Contact". */
export const fieldLabel = (name: string) => humanize(name.endsWith('Id') && name.length > 2 ? name.slice(0, -2) : name);

export const recordPath = (entry: CatalogueResource, id: string) => `${entry.path}/${encodeURIComponent(id)}`;

/** The fields a record's name is made of, and the state: what a related record is selected with. */
export function labelSelection(entry: CatalogueResource): string {
  const names = new Set(entry.label.flat());
  // Without a name of its own, a related record is told by its first date (recordLabel).
  const date = entry.fields.find((field) => field.kind === 'date');
  if (!names.size && date) names.add(date.name);
  if (entry.lifecycle) names.add(entry.lifecycle.field);
  return ['id', ...names].join(' ');
}

/** The GraphQL selection of a reference's record, when the viewer may read it. */
function relationSelection(relation: CatalogueRelation): string {
  const target = resourceOf(relation.resource);
  return target ? `${relation.name} { ${labelSelection(target)} }` : '';
}

/** What a row of a list selects: its plain fields, the name of each record it refers to. */
export function rowSelection(entry: CatalogueResource): string {
  const plain = entry.fields.filter((field) => field.kind !== 'object' && field.kind !== 'objects');
  return [...plain.map((field) => field.name), ...entry.references.map(relationSelection)].filter(Boolean).join(' ');
}

/** What a record page selects: every field, with its objects, and the records it refers to. */
export function recordSelection(entry: CatalogueResource): string {
  const fields = entry.fields.map((field) => (field.item ? `${field.name} { ${field.item.selection} }` : field.name));
  return [...fields, ...entry.references.map(relationSelection)].filter(Boolean).join(' ');
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
