// A finance document (document.ts) printed as a PDF with pdfkit: A4, the
// issuer and the document's title and number at the top, the recipient and the
// dates beside each other, the lines as a table (a discount column and a tax
// column only when some line has one), the totals per tax rate, what was paid
// or credited and what is due, the notes, and on every page a footer with the
// number and "Page n of m". Pure: no database, no network, the fonts embedded
// (fonts.ts). The layout choices are in docs/decisions.md (Invoice documents).
import PDFDocument from 'pdfkit';
import type { DocumentTax, FinanceDocument } from './document.js';
import { documentFonts } from './fonts.js';
import { formatMoney, formatPercent, formatQuantity } from './money.js';
import {
  type Pdf,
  MARGIN,
  COLORS,
  SIZES,
  type Column,
  type Frame,
  frameOf,
  write,
  measure,
  writePairs,
  rowHeight,
  writeRow,
} from './pdf-primitives.js';

const taxLabel = (tax: Pick<DocumentTax, 'name' | 'percentage' | 'inclusive'>) =>
  `${tax.name} ${formatPercent(tax.percentage)}${tax.inclusive ? ' incl.' : ''}`;

function statusNote(document: FinanceDocument): string | null {
  if (document.status === 'draft') return `Draft: not a valid ${document.title.toLowerCase()}`;
  if (document.status === 'void') return 'Void';
  return null;
}

function writeHeader(pdf: Pdf, document: FinanceDocument, frame: Frame): number {
  const half = frame.width / 2 - 10;
  const { issuer } = document;
  let left = frame.top;
  left += write(pdf, issuer.legalName ?? issuer.name, frame.left, left, half, { bold: true, size: SIZES.issuer });
  left += 4;
  if (issuer.address) left += write(pdf, issuer.address, frame.left, left, half);
  if (issuer.taxId) left += write(pdf, `Tax ID: ${issuer.taxId}`, frame.left, left, half);

  const x = frame.right - half;
  let right = frame.top;
  right += write(pdf, document.title, x, right, half, { bold: true, size: SIZES.title, align: 'right' });
  right += write(pdf, document.number, x, right, half, { bold: true, size: 11, align: 'right' });
  const note = statusNote(document);
  if (note) right += 2 + write(pdf, note, x, right + 2, half, { bold: true, color: COLORS.warning, align: 'right' });
  return Math.max(left, right) + 24;
}

function termsOf(days: number): string {
  return days === 0 ? 'Due on receipt' : `Net ${days} day${days === 1 ? '' : 's'}`;
}

function writeParties(pdf: Pdf, document: FinanceDocument, frame: Frame, top: number): number {
  const half = frame.width / 2 - 10;
  const { recipient } = document;
  let left = top;
  const heading = document.title === 'Invoice' ? 'Bill to' : 'Credit to';
  left += write(pdf, heading.toUpperCase(), frame.left, left, half, {
    bold: true,
    size: SIZES.small,
    color: COLORS.muted,
  });
  left += 2;
  const name = recipient.name ?? recipient.company ?? recipient.email ?? '—';
  left += write(pdf, name, frame.left, left, half, { bold: true, size: 10 });
  if (recipient.company && recipient.company !== name) left += write(pdf, recipient.company, frame.left, left, half);
  if (recipient.email && recipient.email !== name) left += write(pdf, recipient.email, frame.left, left, half);

  const pairs: [string, string][] = [];
  if (document.invoiceNumber) pairs.push(['Invoice', document.invoiceNumber]);
  if (document.issueDate) pairs.push([document.title === 'Invoice' ? 'Issue date' : 'Date', document.issueDate]);
  if (document.dueDate) pairs.push(['Due date', document.dueDate]);
  if (document.paymentTermsDays != null) pairs.push(['Terms', termsOf(document.paymentTermsDays)]);
  pairs.push(['Currency', document.currency]);
  if (document.reason) pairs.push(['Reason', document.reason]);
  const right = writePairs(pdf, pairs, frame.right - half, top, half);
  return Math.max(left, right) + 20;
}

function columnsFor(document: FinanceDocument, width: number): Column[] {
  const money = (amount: number) => formatMoney(amount, document.currency);
  const hasDiscount = document.lines.some((line) => (line.discount ?? 0) > 0);
  const hasTax = document.lines.some((line) => line.taxes?.length);
  const fixed: Column[] = [
    { label: 'Qty', width: 48, align: 'right', cell: (line) => formatQuantity(line.quantity) },
    { label: 'Unit price', width: 72, align: 'right', cell: (line) => money(line.unitAmount) },
  ];
  if (hasDiscount) {
    fixed.push({
      label: 'Discount',
      width: 72,
      align: 'right',
      cell: (line) =>
        line.discount
          ? `-${money(line.discount)}${line.discountPercent ? ` (${formatPercent(line.discountPercent)})` : ''}`
          : '',
    });
  }
  if (hasTax) {
    fixed.push({
      label: 'Tax',
      width: 80,
      align: 'right',
      cell: (line) => (line.taxes ?? []).map(taxLabel).join('\n'),
    });
  }
  fixed.push({ label: 'Amount', width: 80, align: 'right', cell: (line) => money(line.amount) });
  const rest = width - fixed.reduce((sum, column) => sum + column.width, 0);
  return [{ label: 'Description', width: rest, align: 'left', cell: (line) => line.description }, ...fixed];
}

/** The lines' table, its header repeated on each page it runs onto; answers the y below it. */
function writeLines(pdf: Pdf, document: FinanceDocument, top: number): number {
  let frame = frameOf(pdf);
  const columns = columnsFor(document, frame.width);
  const header = columns.map((column) => column.label);
  const headerHeight = rowHeight(pdf, header, columns, true);
  writeRow(pdf, header, columns, frame, top, headerHeight, true);
  let y = top + headerHeight;
  for (const line of document.lines) {
    const cells = columns.map((column) => column.cell(line));
    const height = rowHeight(pdf, cells, columns);
    if (y + height > frame.bottom) {
      pdf.addPage();
      frame = frameOf(pdf);
      writeRow(pdf, header, columns, frame, frame.top, headerHeight, true);
      y = frame.top + headerHeight;
    }
    writeRow(pdf, cells, columns, frame, y, height);
    y += height;
  }
  return y + 12;
}

interface TotalRow {
  label: string;
  value: string;
  strong?: boolean;
}

function totalRows(document: FinanceDocument): TotalRow[] {
  const money = (amount: number) => formatMoney(amount, document.currency);
  const rows: TotalRow[] = [{ label: 'Subtotal', value: money(document.subtotal) }];
  if (document.discountTotal) rows.push({ label: 'Discount', value: `-${money(document.discountTotal)}` });
  if (document.taxes?.length) {
    for (const tax of document.taxes) {
      const included = tax.inclusive ? ', included' : '';
      rows.push({
        label: `${tax.name} ${formatPercent(tax.percentage)} on ${money(tax.taxableAmount)}${included}`,
        value: money(tax.amount),
      });
    }
  } else if (document.taxTotal) {
    rows.push({ label: 'Tax', value: money(document.taxTotal) });
  }
  const isInvoice = document.title === 'Invoice';
  rows.push({
    label: isInvoice ? 'Total' : 'Total credited',
    value: `${document.currency} ${money(document.total)}`,
    strong: true,
  });
  if (document.amountPaid) rows.push({ label: 'Paid', value: `-${money(document.amountPaid)}` });
  if (document.amountCredited) rows.push({ label: 'Credited', value: `-${money(document.amountCredited)}` });
  if (document.amountDue != null) {
    rows.push({ label: 'Amount due', value: `${document.currency} ${money(document.amountDue)}`, strong: true });
  }
  return rows;
}

/** The totals, right-aligned under the table, kept together on one page; answers the y below them. */
function writeTotals(pdf: Pdf, document: FinanceDocument, top: number): number {
  let frame = frameOf(pdf);
  const width = Math.min(320, frame.width);
  const x = frame.right - width;
  // The values' column holds the largest amount (2^53 − 1 minor units, with the currency) on one line.
  const valueWidth = 160;
  const labelWidth = width - valueWidth;
  const rows = totalRows(document);
  const styleOf = (row: TotalRow) => ({ bold: row.strong, size: row.strong ? 10 : SIZES.body });
  // A strong row has a rule above it.
  const heightOf = (row: TotalRow) =>
    Math.max(measure(pdf, row.label, labelWidth, styleOf(row)), measure(pdf, row.value, valueWidth, styleOf(row))) +
    (row.strong ? 10 : 4);
  let y = top;
  if (y + rows.reduce((sum, row) => sum + heightOf(row), 0) > frame.bottom) {
    pdf.addPage();
    frame = frameOf(pdf);
    y = frame.top;
  }
  for (const row of rows) {
    const style = styleOf(row);
    const height = heightOf(row);
    if (row.strong) {
      pdf.moveTo(x, y).lineTo(frame.right, y).lineWidth(0.75).strokeColor(COLORS.text).stroke();
      y += 4;
    }
    write(pdf, row.label, x, y, labelWidth, style);
    write(pdf, row.value, x + labelWidth, y, valueWidth, { ...style, align: 'right' });
    y += row.strong ? height - 4 : height;
  }
  return y + 16;
}

function writeNotes(pdf: Pdf, notes: string, top: number): void {
  let frame = frameOf(pdf);
  let y = top;
  // The heading and at least the first lines together.
  if (y + 40 > frame.bottom) {
    pdf.addPage();
    frame = frameOf(pdf);
    y = frame.top;
  }
  y += write(pdf, 'NOTES', frame.left, y, frame.width, { bold: true, size: SIZES.small, color: COLORS.muted }) + 2;
  // pdfkit carries text that overflows the page onto new ones by itself.
  write(pdf, notes, frame.left, y, frame.width);
}

/** The footer of every page, once they are all laid out (their count is known). */
function writeFooters(pdf: Pdf, document: FinanceDocument): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    pdf.switchToPage(i);
    const frame = frameOf(pdf);
    const y = pdf.page.height - MARGIN - 10;
    // Text below the bottom margin would make pdfkit start a new page.
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    const style = { size: SIZES.small, color: COLORS.muted };
    write(pdf, `${document.title} ${document.number}`, frame.left, y, frame.width * 0.7, style);
    write(pdf, `Page ${i - start + 1} of ${count}`, frame.left, y, frame.width, { ...style, align: 'right' });
    pdf.page.margins.bottom = bottom;
  }
}

/** The document as a PDF file. */
export function renderDocument(document: FinanceDocument): Promise<Buffer> {
  const fonts = documentFonts();
  const issuer = document.issuer.legalName ?? document.issuer.name;
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    // No default font: pdfkit's is Helvetica, a standard font that is not embedded. Ours are registered below.
    font: null as unknown as string,
    lang: 'en',
    displayTitle: true,
    info: { Title: `${document.title} ${document.number}`, Author: issuer, Creator: issuer },
  });
  // pdfkit takes a parsed fontkit font (so each document does not parse the file again); its types say a path.
  pdf.registerFont('regular', fonts.regular as unknown as string);
  pdf.registerFont('bold', fonts.bold as unknown as string);
  pdf.font('regular');
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const frame = frameOf(pdf);
  let y = writeHeader(pdf, document, frame);
  y = writeParties(pdf, document, frame, y);
  y = writeLines(pdf, document, y);
  y = writeTotals(pdf, document, y);
  if (document.notes) writeNotes(pdf, document.notes, y);
  writeFooters(pdf, document);
  pdf.end();
  return done;
}
