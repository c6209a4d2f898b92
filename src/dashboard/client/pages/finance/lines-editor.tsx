// The lines of an invoice or a credit note as you type them (description,
// quantity, unit price, a discount in percent or as an amount, tax rates), each
// with its amount, and the totals: every figure from the server's own pricing
// (draft.ts), so what is shown is what will be saved.
import type { ComponentChildren } from 'preact';
import { Field, formatMoney, Select } from '../../ui.js';
import {
  emptyLine,
  type DiscountKind,
  type DraftLine,
  type FieldErrors,
  type PricedLines,
  type TaxRateTerms,
} from './draft.js';
import { rateLabel } from './records.js';
import './finance.css';

const DISCOUNTS: { value: DiscountKind; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'percent', label: 'Percent' },
  { value: 'amount', label: 'Amount' },
];

export function LinesEditor({
  lines,
  onChange,
  currency,
  rates,
  errors,
  priced,
}: {
  lines: DraftLine[];
  onChange: (lines: DraftLine[]) => void;
  currency: string;
  /** The rates a line may name. */
  rates: readonly TaxRateTerms[];
  errors: FieldErrors;
  priced?: PricedLines;
}) {
  const change = (i: number, patch: Partial<DraftLine>) =>
    onChange(lines.map((line, k) => (k === i ? { ...line, ...patch } : line)));
  const remove = (i: number) => onChange(lines.filter((_, k) => k !== i));
  return (
    <div class="invoice-lines">
      {lines.map((line, i) => {
        const name = (field: string) => `lines.${i}.${field}`;
        const text = (field: keyof DraftLine) => ({
          name: name(field),
          value: line[field] as string,
          onInput: (event: Event) => change(i, { [field]: (event.currentTarget as HTMLInputElement).value }),
        });
        const amount = priced?.lines[i]?.amount;
        return (
          <fieldset class="invoice-line" key={i}>
            <legend>Line {i + 1}</legend>
            <Field label="Description" {...text('description')} required error={errors[name('description')]} />
            <Field
              label="Quantity"
              inputMode="decimal"
              {...text('quantity')}
              required
              error={errors[name('quantity')]}
            />
            <Field
              label="Unit price"
              inputMode="decimal"
              {...text('unitPrice')}
              name={name('unitAmount')}
              required
              error={errors[name('unitAmount')]}
            />
            <Select
              label="Discount"
              name={name('discountKind')}
              options={DISCOUNTS}
              value={line.discountKind}
              onChange={(event) => change(i, { discountKind: event.currentTarget.value as DiscountKind, discount: '' })}
            />
            {line.discountKind !== 'none' && (
              <Field
                label={line.discountKind === 'percent' ? 'Discount percent' : 'Discount amount'}
                inputMode="decimal"
                {...text('discount')}
                name={name(line.discountKind === 'percent' ? 'discountPercent' : 'discountAmount')}
                required
                error={errors[name(line.discountKind === 'percent' ? 'discountPercent' : 'discountAmount')]}
              />
            )}
            <TaxChecks
              line={i}
              rates={rates}
              chosen={line.taxRateIds}
              error={errors[name('taxRateIds')]}
              onChange={(taxRateIds) => change(i, { taxRateIds })}
            />
            <p class="line-amount">
              <span>Line amount</span> <output>{amount === undefined ? '—' : formatMoney(amount, currency)}</output>
            </p>
            <button
              type="button"
              class="secondary small"
              aria-label={`Remove line ${i + 1}`}
              disabled={lines.length === 1}
              onClick={() => remove(i)}
            >
              Remove
            </button>
          </fieldset>
        );
      })}
      <p>
        <button type="button" class="secondary" onClick={() => onChange([...lines, emptyLine()])}>
          Add line
        </button>
      </p>
    </div>
  );
}

function TaxChecks({
  line,
  rates,
  chosen,
  error,
  onChange,
}: {
  line: number;
  rates: readonly TaxRateTerms[];
  chosen: string[];
  error?: string;
  onChange: (ids: string[]) => void;
}) {
  const errorId = `lines-${line}-taxes-error`;
  // In the rates' order, so taxes list as the rates do whatever the order they were ticked in.
  const toggle = (id: string, on: boolean) =>
    onChange(rates.map((rate) => rate.id).filter((rateId) => (rateId === id ? on : chosen.includes(rateId))));
  return (
    <fieldset class={`checks taxes${error ? ' invalid' : ''}`} aria-describedby={error ? errorId : undefined}>
      <legend>Taxes</legend>
      {rates.length ? (
        rates.map((rate) => (
          <label key={rate.id}>
            <input
              type="checkbox"
              name={`lines.${line}.taxRateIds`}
              value={rate.id}
              checked={chosen.includes(rate.id)}
              onChange={(event) => toggle(rate.id, event.currentTarget.checked)}
            />
            <span>{rateLabel(rate)}</span>
          </label>
        ))
      ) : (
        <p class="muted">No active tax rates (an administrator adds them: Finance → Tax rates).</p>
      )}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

interface TotalsOf {
  subtotal: number;
  discountTotal: number;
  taxes: {
    taxRateId: string;
    name: string;
    percentage: string;
    inclusive: boolean;
    taxableAmount: number;
    amount: number;
  }[];
  total: number;
}

/** Subtotal, discounts, each rate's tax (on its taxable amount) and the total; more rows after (paid, due). */
export function Totals({
  totals,
  currency,
  children,
  caption = 'Totals',
}: {
  totals?: TotalsOf;
  currency: string;
  children?: ComponentChildren;
  caption?: string;
}) {
  const money = (amount: number | undefined) => (amount === undefined ? '—' : formatMoney(amount, currency));
  return (
    <table class="totals">
      <caption>{caption}</caption>
      <tbody>
        <tr>
          <th scope="row">Subtotal</th>
          <td class="number">{money(totals?.subtotal)}</td>
        </tr>
        <tr>
          <th scope="row">Discounts</th>
          <td class="number">{totals ? money(-totals.discountTotal) : '—'}</td>
        </tr>
        {totals?.taxes.map((tax) => (
          <tr key={tax.taxRateId}>
            <th scope="row">
              {rateLabel(tax)} <span class="muted">on {money(tax.taxableAmount)}</span>
            </th>
            <td class="number">{money(tax.amount)}</td>
          </tr>
        ))}
        <tr class="total">
          <th scope="row">Total</th>
          <td class="number">{money(totals?.total)}</td>
        </tr>
        {children}
      </tbody>
    </table>
  );
}
