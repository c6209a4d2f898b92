// One payslip's lines: its earnings (salary by month and compensation, unpaid
// leave, allowances) up to the gross, its deductions, and the net; each line
// named by its code in words with how it was worked out beside it.
import { formatMoney, humanize } from '../../ui.js';
import type { PayrollItem, PayrollLine } from './payroll-types.js';

function LineRow({ line, currency }: { line: PayrollLine; currency: string }) {
  return (
    <tr>
      <th scope="row" class="line-label">
        {humanize(line.code)}
        <span class="detail">{line.description}</span>
      </th>
      <td class="number">{formatMoney(line.amount, currency)}</td>
    </tr>
  );
}

export function PayslipLines({ item, caption }: { item: PayrollItem; caption: string }) {
  const earnings = item.lines.filter((line) => line.kind === 'earning');
  const deductions = item.lines.filter((line) => line.kind === 'deduction');
  const money = (amount: number) => formatMoney(amount, item.currency);
  return (
    <table class="payslip-lines">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col" class="number">
            Amount ({item.currency})
          </th>
        </tr>
      </thead>
      <tbody>
        <tr class="group">
          <th scope="rowgroup" colSpan={2}>
            Earnings
          </th>
        </tr>
        {earnings.map((line, i) => (
          <LineRow key={`e${i}`} line={line} currency={item.currency} />
        ))}
        <tr class="subtotal">
          <th scope="row">Gross</th>
          <td class="number">{money(item.grossAmount)}</td>
        </tr>
        <tr class="group">
          <th scope="rowgroup" colSpan={2}>
            Deductions
          </th>
        </tr>
        {deductions.length === 0 && (
          <tr>
            <td colSpan={2} class="muted">
              None
            </td>
          </tr>
        )}
        {deductions.map((line, i) => (
          <LineRow key={`d${i}`} line={line} currency={item.currency} />
        ))}
        <tr class="subtotal">
          <th scope="row">Deductions</th>
          <td class="number">{money(item.deductionsAmount)}</td>
        </tr>
      </tbody>
      <tfoot>
        <tr class="net">
          <th scope="row">Net pay</th>
          <td class="number">{money(item.netAmount)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
