// A filled generated form read back into a GraphQL input: each control's text
// as its field's value (a whole number, money in minor units of the form's
// currency, an instant in UTC, a list split at commas, each object of a list);
// on create and for an action the empty ones left out; on update only what
// changed, an emptied clearable field as null (the API's "null clears"). Text
// that cannot be the field's value is refused beside it before any request.
import { ApiError } from '../api.js';
import { toMinorUnits } from '../pages/data/money.js';
import type { InputField } from '../../catalogue-shape.js';
import type { Row } from './catalogue.js';

export type Mode = 'create' | 'update' | 'action';

/** Whether the form's amounts are in a currency's units: it has a currency field, or its record has one. */
export const isPriced = (fields: readonly InputField[], record?: Record<string, unknown>) =>
  fields.some((field) => field.name === 'currency') || typeof record?.currency === 'string';

const invalid = (field: string, message: string) => new ApiError(message, 'VALIDATION_ERROR', field);

/** A control's text as the field's value; throws beside the field when it cannot be one. */
function parsed(field: InputField, name: string, text: string, currency: string | undefined): unknown {
  switch (field.kind) {
    case 'int':
      if (!/^-?\d+$/.test(text)) throw invalid(name, 'must be a whole number');
      return Number(text);
    case 'number': {
      const number = Number(text.replace(',', '.'));
      if (Number.isNaN(number)) throw invalid(name, 'must be a number');
      return number;
    }
    case 'money': {
      const amount = currency ? toMinorUnits(text, currency) : /^-?\d+$/.test(text) ? Number(text) : undefined;
      if (amount === undefined)
        throw invalid(name, currency ? 'must be a number, e.g. 1250.00' : 'must be a whole number');
      return amount;
    }
    case 'boolean':
      return text === 'true';
    case 'timestamp': {
      const date = new Date(text);
      if (Number.isNaN(date.getTime())) throw invalid(name, 'must be a date and time');
      return date.toISOString();
    }
    case 'textList':
    case 'idList':
      return text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    default:
      return text;
  }
}

/** Two values the same for an update (instants to the second: the control holds no milliseconds). */
function same(field: InputField, a: unknown, b: unknown): boolean {
  if (field.kind === 'timestamp' && typeof a === 'string' && typeof b === 'string') {
    return Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000);
  }
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** An object of a list as its input takes it: only the input's fields, absent ones null. */
const projected = (fields: readonly InputField[], item: Record<string, unknown>) =>
  Object.fromEntries(fields.map((field) => [field.name, item[field.name] ?? null]));

function readObjects(data: FormData, field: InputField, currency: string | undefined): Record<string, unknown>[] {
  const count = Number(data.get(`${field.name}.count`) ?? 0);
  const items: Record<string, unknown>[] = [];
  for (let index = 0; index < count; index++) {
    const item: Record<string, unknown> = {};
    for (const inner of field.item?.fields ?? []) {
      const name = `${field.name}.${index}.${inner.name}`;
      const text = String(data.get(name) ?? '').trim();
      if (text) item[inner.name] = parsed(inner, name, text, currency);
    }
    items.push(item);
  }
  return items;
}

/**
 * The input a filled form gives: each field's value by its kind; on create (and
 * an action) the empty ones left out; on update only what changed, an emptied
 * clearable field as null.
 */
export function readInput(
  form: HTMLFormElement,
  fields: readonly InputField[],
  mode: Mode,
  record?: Record<string, unknown>,
): Record<string, unknown> {
  const data = new FormData(form);
  const priced = isPriced(fields, record);
  // Without a currency typed yet, amounts are read with two decimals (the API then asks for the currency).
  const currency = priced
    ? String(data.get('currency') ?? '')
        .trim()
        .toUpperCase() ||
      (typeof record?.currency === 'string' ? record.currency : undefined) ||
      'USD'
    : undefined;
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const current = record?.[field.name];
    if (field.kind === 'objects') {
      const items = readObjects(data, field, currency);
      const before = Array.isArray(current)
        ? current.map((item) => projected(field.item?.fields ?? [], item as Row))
        : [];
      const after = items.map((item) => projected(field.item?.fields ?? [], item));
      if (mode !== 'update' ? items.length > 0 : !same(field, before, after)) input[field.name] = items;
      continue;
    }
    const text = String(data.get(field.name) ?? '').trim();
    if (!text) {
      const filled =
        current !== null && current !== undefined && current !== '' && !(Array.isArray(current) && !current.length);
      if (mode === 'update' && filled && field.clearable) input[field.name] = null;
      continue;
    }
    const value = parsed(field, field.name, text, currency);
    if (mode === 'update' && same(field, value, current)) continue;
    input[field.name] = value;
  }
  return input;
}

/** Whether a control shows the error about this field (a line's field is inside its list's control). */
export function shownBeside(fields: readonly InputField[], name: string | undefined): boolean {
  if (!name) return false;
  return fields.some((field) => field.name === name || (field.item !== undefined && name.startsWith(`${field.name}.`)));
}
