// A record's value as a person reads it, by its kind: money in its currency,
// dates and instants in the one format, states as badges, references as links
// named by the record they name, lists of objects as small tables.
import type { ComponentChildren } from 'preact';
import { formatDate, formatDateTime, formatMoney, humanize, Link, StatusBadge } from '../ui.js';
import {
  currencyOf,
  fieldLabel,
  recordLabel,
  recordPath,
  referenceOf,
  resourceOf,
  type CatalogueField,
  type CatalogueResource,
} from './catalogue.js';

const EMPTY = '—';

const numberFormat = new Intl.NumberFormat();

/** A plain value of a kind, with the record (or object) it is in for a money's currency. */
export function formatValue(
  field: CatalogueField,
  value: unknown,
  row: Record<string, unknown>,
  parent?: Record<string, unknown>,
): ComponentChildren {
  if (value === null || value === undefined || value === '') return EMPTY;
  switch (field.kind) {
    case 'money': {
      const currency = currencyOf(row, parent);
      // Minor units without a currency beside them (a pay component's): shown as they are.
      return currency ? formatMoney(Number(value), currency) : numberFormat.format(Number(value));
    }
    case 'date':
      return formatDate(String(value));
    case 'timestamp':
      return formatDateTime(String(value));
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'int':
    case 'number':
      return typeof value === 'number' ? numberFormat.format(value) : String(value);
    case 'enum':
      return humanize(String(value));
    case 'email':
      return <a href={`mailto:${String(value)}`}>{String(value)}</a>;
    case 'textList':
      return (value as string[]).length
        ? (value as string[]).map((item) => (
            <span class="tag" key={item}>
              {item}
            </span>
          ))
        : EMPTY;
    case 'idList':
      return (value as string[]).length ? (value as string[]).map((id) => <code key={id}>{id} </code>) : EMPTY;
    case 'object':
      return <ObjectValue field={field} value={value as Record<string, unknown>} row={row} />;
    case 'objects':
      return `${(value as unknown[]).length} ${humanize(field.name).toLowerCase()}`;
    case 'id':
      return <code>{String(value)}</code>;
    default:
      return String(value);
  }
}

/** One object (who decided: `{type, id}`): its fields as `Name: value` pairs. */
function ObjectValue({
  field,
  value,
  row,
}: {
  field: CatalogueField;
  value: Record<string, unknown>;
  row: Record<string, unknown>;
}) {
  const fields = field.item?.fields ?? [];
  return (
    <span class="object-value">
      {fields
        .filter((inner) => value[inner.name] !== null && value[inner.name] !== undefined)
        .map((inner, i) => (
          <span key={inner.name}>
            {i > 0 && ' · '}
            {humanize(inner.name)}: {formatValue(inner, value[inner.name], value, row)}
          </span>
        ))}
    </span>
  );
}

/** A field of a record: a reference as a link to the record it names, the state as a badge, else its value. */
export function RecordValue({
  entry,
  field,
  row,
}: {
  entry: CatalogueResource;
  field: CatalogueField;
  row: Record<string, unknown>;
}) {
  const value = row[field.name];
  if (entry.lifecycle?.field === field.name) return <StatusBadge value={value as string | null} />;
  const reference = referenceOf(entry, field.name);
  if (reference && typeof value === 'string') {
    const target = resourceOf(reference.resource);
    const related = row[reference.name] as Record<string, unknown> | null | undefined;
    if (target && related) return <Link href={recordPath(target, value)}>{recordLabel(target, related)}</Link>;
    // A record the viewer may not read, or one that is gone: its id.
    return <code>{value}</code>;
  }
  return <>{formatValue(field, value, row)}</>;
}

/** A field of a record as plain text (a reference by the name of the record it names). */
export function valueText(entry: CatalogueResource, field: CatalogueField, row: Record<string, unknown>): string {
  const value = row[field.name];
  if (value === null || value === undefined || value === '') return EMPTY;
  const reference = referenceOf(entry, field.name);
  const target = reference && resourceOf(reference.resource);
  const related = reference && (row[reference.name] as Record<string, unknown> | null | undefined);
  if (target && related) return recordLabel(target, related);
  if (field.kind === 'textList' || field.kind === 'idList') return (value as string[]).join(', ') || EMPTY;
  if (field.kind === 'email' || field.kind === 'id') return String(value);
  const formatted = formatValue(field, value, row);
  return typeof formatted === 'string' ? formatted : String(value);
}

/** A list of objects (an invoice's lines): a table of their plain fields, cards when narrow. */
export function ObjectsTable({
  field,
  items,
  parent,
}: {
  field: CatalogueField;
  items: Record<string, unknown>[];
  parent: Record<string, unknown>;
}) {
  if (!items.length) return <p class="muted">None.</p>;
  const label = fieldLabel(field.name);
  const columns = (field.item?.fields ?? []).filter(
    (inner) => inner.kind !== 'object' && !(inner.name === 'currency' && parent.currency),
  );
  return (
    // Focusable, so a keyboard can scroll a table wider than the page.
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table class="stack-narrow">
        <thead>
          <tr>
            {columns.map((inner) => (
              <th key={inner.name} class={isNumeric(inner) ? 'number' : undefined} scope="col">
                {fieldLabel(inner.name)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item, i) => (
            <tr key={i}>
              {columns.map((inner) => (
                <td
                  key={inner.name}
                  class={isNumeric(inner) ? 'number' : undefined}
                  data-label={fieldLabel(inner.name)}
                >
                  {formatValue(inner, item[inner.name], item, parent)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export const isNumeric = (field: Pick<CatalogueField, 'kind'>) =>
  field.kind === 'money' || field.kind === 'int' || field.kind === 'number' || field.kind === 'decimal';
