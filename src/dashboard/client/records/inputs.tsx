// The controls of a generated form, one per input field by its kind (text,
// email, a number, money in the currency's units, a date, an instant, a yes/no,
// one of an enum's values, a record through the searchable picker, a list
// separated by commas, a list of objects such as an invoice's lines); what
// they hold is read back by read-input.ts.
import { useState } from 'preact/hooks';
import { fromMinorUnits } from '../pages/data/money.js';
import { describedBy, FieldNotes } from '../forms.js';
import { RecordPicker } from '../picker.js';
import { Field, humanize, Select } from '../ui.js';
import { fieldLabel, isLongText, resourceOf, type Row } from './catalogue.js';
import type { InputField } from '../../catalogue-shape.js';
import { pickerSourceOf } from './picker-source.js';

import type { Mode } from './read-input.js';

export { isPriced, readInput, shownBeside, type Mode } from './read-input.js';

/** The fields a form of this mode shows. */
export const fieldsFor = (fields: readonly InputField[], mode: Mode) =>
  fields.filter((field) => (mode === 'create' ? !field.updateOnly : mode === 'update' ? !field.createOnly : true));

/** An instant as a datetime-local input shows it, in the viewer's time zone, to the second. */
function localDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

/** A value as its control holds it (text). */
function shown(field: InputField, value: unknown, currency: string | undefined): string {
  if (value === null || value === undefined) return '';
  switch (field.kind) {
    case 'money':
      return currency ? fromMinorUnits(Number(value), currency) : String(value);
    case 'timestamp':
      return localDateTime(String(value));
    case 'textList':
    case 'idList':
      return (value as string[]).join(', ');
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return String(value);
  }
}

interface ControlProps {
  field: InputField;
  mode: Mode;
  /** The record's value (an edit), or a value given in the URL (a new deal's contactId). */
  value: unknown;
  /** The currency of the record the form edits: how its amounts are shown. */
  currency?: string;
  /** Whether amounts are typed in the currency's units (the form or the record has a currency). */
  priced: boolean;
  /** The name the control's value is read back by: the field's, or `lines.0.quantity` inside a list. */
  name?: string;
  error(name: string): string | undefined;
}

/** A select holds its own value (a <select> has no default value to keep across renders). */
function OwnSelect(props: Parameters<typeof Select>[0] & { initial: string }) {
  const { initial, ...rest } = props;
  const [value, setValue] = useState(initial);
  return <Select {...rest} value={value} onChange={(event) => setValue(event.currentTarget.value)} />;
}

export function InputControl({ field, mode, value, currency, priced, name = field.name, error }: ControlProps) {
  const label = fieldLabel(field.name);
  const common = { label, name, error: error(name), required: mode !== 'update' && field.required };
  const initial = shown(field, value, currency);
  switch (field.kind) {
    case 'enum': {
      const values = (mode === 'create' && field.createValues) || field.values || [];
      const blank = !field.required || mode !== 'create' ? [{ value: '', label: '—' }] : [];
      // An update keeps the current value selected; a blank is "leave as it is" (or clear, if clearable).
      const options = [
        ...(mode === 'update' && value ? [] : blank),
        ...values.map((v) => ({ value: v, label: humanize(v) })),
      ];
      return (
        <OwnSelect
          {...common}
          options={options}
          initial={initial || (field.required && mode === 'create' ? values[0]! : '')}
        />
      );
    }
    case 'boolean':
      return (
        <OwnSelect
          {...common}
          initial={initial}
          options={[
            ...(mode !== 'update' || value === null || value === undefined ? [{ value: '', label: '—' }] : []),
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]}
        />
      );
    case 'objects':
      return (
        <ObjectsControl
          field={field}
          mode={mode}
          value={value as Row[] | null}
          currency={currency}
          priced={priced}
          error={error}
        />
      );
    default:
      break;
  }
  const target = resourceOf(field.reference);
  if (target && field.kind === 'id') {
    return (
      <RecordPicker
        label={label}
        name={name}
        source={pickerSourceOf(target)}
        value={initial}
        error={common.error}
        required={common.required}
      />
    );
  }
  if (isLongText(field) && field.kind === 'text') {
    return <TextArea {...common} initial={initial} />;
  }
  const byKind: Record<string, Record<string, unknown>> = {
    email: { type: 'email', autocomplete: 'off' },
    int: { inputMode: 'numeric' },
    number: { inputMode: 'decimal' },
    money: {
      inputMode: 'decimal',
      hint: priced ? "In the currency's units, e.g. 1250.00" : 'In minor units (cents), e.g. 125000',
    },
    date: { type: 'date' },
    timestamp: { type: 'datetime-local', step: 1 },
    textList: { hint: 'Separated by commas, e.g. customer, newsletter' },
    idList: { hint: 'Ids separated by commas' },
  };
  return <Field {...common} defaultValue={initial} {...byKind[field.kind]} />;
}

function TextArea({
  label,
  name,
  error,
  required,
  initial,
}: {
  label: string;
  name: string;
  error?: string;
  required: boolean;
  initial: string;
}) {
  const id = `field-${name}`;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={3}
        defaultValue={initial}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, undefined, error)}
      />
      <FieldNotes id={id} error={error} />
    </div>
  );
}

let nextRow = 0;

/** A list of objects (lines): a group of controls per item, added and removed; read back by position. */
function ObjectsControl({
  field,
  mode,
  value,
  currency,
  priced,
  error,
}: {
  field: InputField;
  mode: Mode;
  value: Row[] | null;
  currency?: string;
  priced: boolean;
  error(name: string): string | undefined;
}) {
  const [rows, setRows] = useState(() => (value ?? []).map((item) => ({ key: nextRow++, item })));
  const label = fieldLabel(field.name);
  const one = label.replace(/s$/, '').toLowerCase();
  const itemFields = field.item?.fields ?? [];
  return (
    <fieldset class={`objects${error(field.name) ? ' invalid' : ''}`}>
      <legend>{label}</legend>
      {/* How many there are, so reading the form back finds each by its position. */}
      <input type="hidden" name={`${field.name}.count`} value={rows.length} />
      {rows.map((row, index) => (
        <fieldset class="object-item" key={row.key}>
          <legend>
            {humanize(one)} {index + 1}
          </legend>
          {itemFields.map((inner) => (
            <InputControl
              key={inner.name}
              field={inner}
              mode="create"
              value={(row.item as Record<string, unknown>)[inner.name]}
              currency={currency}
              priced={priced}
              name={`${field.name}.${index}.${inner.name}`}
              error={error}
            />
          ))}
          <button
            type="button"
            class="secondary small"
            onClick={() => setRows(rows.filter((other) => other.key !== row.key))}
          >
            Remove {one} {index + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" class="secondary" onClick={() => setRows([...rows, { key: nextRow++, item: { id: '' } }])}>
        Add {one}
      </button>
      {mode === 'update' && <p class="hint">Saving replaces every {one}.</p>}
      {error(field.name) && <p class="field-error">{error(field.name)}</p>}
    </fieldset>
  );
}
