// `invoice-lines`: one row per line of the invoices the filters choose (the
// invoices list's own filters: status, contactId, from/to on the issue date, q),
// with what a book-keeper files beside each line: the invoice's id, number,
// status, issue date, currency, contact and the contact's name; the line's
// number, description, quantity, unit amount, discount, amount, taxes and total.
// Lines are the jsonb array "Invoice".lines, unfolded in SQL in their order; their
// keys are read with ->>, each that may be missing (a line written before
// discounts and taxes existed) read as none: no discount, no tax, so its total
// is its amount. Rows come in the keyset (createdAt, id) of the invoices, then
// the line's number, a batch at a time like every other source.
import { publicFieldsOf } from '../../kit/fields.js';
import { referenceNamesOf } from '../../kit/labels.js';
import { whereOf } from '../../kit/list.js';
import type { Resource } from '../../kit/resource.js';
import { decimalRefusal, filtersOf, type ExportSource } from './source.js';

const LINE = '"line"';
const item = `${LINE}.item`;
/** A line's integer minor units under `key`, 0 when it has none. */
const minorUnits = (key: string) => `coalesce((${item}->>'${key}')::bigint, 0)`;
/** The line's taxes: [{taxRateId, name, percentage, inclusive, taxableAmount, amount}], [] when it has none. */
const taxes = `(case when jsonb_typeof(${item}->'taxes') = 'array' then ${item}->'taxes' else '[]'::jsonb end)`;
const taxSum = (only = 'true') =>
  `coalesce((select sum((t.tax->>'amount')::bigint) from jsonb_array_elements(${taxes}) as t(tax) where ${only}), 0)`;
const exclusive = `not coalesce((t.tax->>'inclusive')::boolean, false)`;

/** The line's columns: its own keys, and what its taxes add up to. */
const LINE_COLUMNS: { name: string; sql: string }[] = [
  { name: 'lineNumber', sql: `${LINE}.n::int` },
  { name: 'description', sql: `${item}->>'description'` },
  { name: 'quantity', sql: `(${item}->>'quantity')::float8` },
  { name: 'unitAmount', sql: `${minorUnits('unitAmount')}::float8` },
  { name: 'discountPercent', sql: `${item}->>'discountPercent'` },
  { name: 'discount', sql: `${minorUnits('discount')}::float8` },
  { name: 'amount', sql: `${minorUnits('amount')}::float8` },
  {
    name: 'taxRates',
    sql: `coalesce((select string_agg(t.tax->>'name', '; ' order by t.n) from jsonb_array_elements(${taxes}) with ordinality as t(tax, n)), '')`,
  },
  { name: 'taxAmount', sql: `${taxSum()}::float8` },
  // After discount; an inclusive tax is inside the amount already, an exclusive one is added.
  { name: 'lineTotal', sql: `(${minorUnits('amount')} + ${taxSum(exclusive)})::float8` },
];

const MONEY = ['unitAmount', 'discount', 'amount', 'taxAmount', 'lineTotal'];

/** The invoice's fields each line repeats, by the invoice's field and the line's column. */
const INVOICE_COLUMNS: [field: string, column: string][] = [
  ['id', 'invoiceId'],
  ['number', 'invoiceNumber'],
  ['status', 'invoiceStatus'],
  ['issueDate', 'issueDate'],
  ['currency', 'currency'],
];

export function invoiceLinesSource(invoices: Resource): ExportSource {
  const { table, type, list } = invoices;
  const fields = publicFieldsOf(type);
  const invoiceColumn = (field: string, column: string) => {
    const { kind } = fields.find((f) => f.name === field)!;
    return { name: column, sql: `${kind.sql(`"${table}"."${field}"`, table)} as "${column}"` };
  };
  // Each declared reference of the invoice (its contact) with the name beside it.
  const references = referenceNamesOf(invoices).flatMap((named) => [
    { name: named.field, sql: `"${table}"."${named.field}"` },
    { name: named.name, sql: named.sql(table) },
  ]);
  const columns = [
    ...INVOICE_COLUMNS.map(([field, column]) => invoiceColumn(field, column)),
    ...references,
    ...LINE_COLUMNS.map(({ name, sql }) => ({ name, sql: `${sql} as "${name}"` })),
  ];
  const money = { amounts: MONEY, currency: 'currency', nested: [] };
  return {
    name: 'invoice-lines',
    table,
    from: `"${table}" cross join lateral jsonb_array_elements("${table}".lines) with ordinality as ${LINE}(item, n)`,
    within: { sql: `${LINE}.n`, type: 'bigint' },
    columns: columns.map((column) => column.name),
    select: columns.map((column) => column.sql).join(', '),
    filters: filtersOf(list.schema),
    exportScope: invoices.area.read,
    readScope: invoices.area.read,
    hidden: [],
    money,
    noDecimal: decimalRefusal('invoice-lines', money),
    where: (organizationId, filters) => whereOf(list, organizationId, filters, table),
  };
}
