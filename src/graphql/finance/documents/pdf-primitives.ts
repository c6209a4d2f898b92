// The page primitives a finance document's PDF is written with (render.ts lays
// the document out): the frame, styled text, label/value pairs and table rows.
import type { DocumentLine } from './document.js';

export type Pdf = PDFKit.PDFDocument;

export const MARGIN = 50;
/** Kept free at the bottom of every page for the footer. */
export const FOOTER_SPACE = 24;
export const COLORS = { text: '#111111', muted: '#666666', rule: '#cccccc', band: '#f0f0f0', warning: '#b00020' };
export const SIZES = { title: 22, issuer: 14, body: 9, small: 8 };
export const CELL_PADDING = 4;

export interface Column {
  label: string;
  width: number;
  align: 'left' | 'right';
  cell(line: DocumentLine): string;
}

/** The area text may take on a page. */
export interface Frame {
  left: number;
  right: number;
  width: number;
  top: number;
  bottom: number;
}

export const frameOf = (pdf: Pdf): Frame => ({
  left: MARGIN,
  right: pdf.page.width - MARGIN,
  width: pdf.page.width - 2 * MARGIN,
  top: MARGIN,
  bottom: pdf.page.height - MARGIN - FOOTER_SPACE,
});

/** Writes `text` at (x, y) in a box `width` wide; answers the height it took. */
export function write(
  pdf: Pdf,
  text: string,
  x: number,
  y: number,
  width: number,
  style: { bold?: boolean; size?: number; color?: string; align?: 'left' | 'right' } = {},
): number {
  if (!text) return 0;
  pdf
    .font(style.bold ? 'bold' : 'regular')
    .fontSize(style.size ?? SIZES.body)
    .fillColor(style.color ?? COLORS.text);
  pdf.text(text, x, y, { width, align: style.align ?? 'left' });
  // pdfkit leaves its cursor below the text it wrote: the height, without laying the text out again.
  return pdf.y - y;
}

/** The height `text` would take, as write() would set it. */
export function measure(pdf: Pdf, text: string, width: number, style: { bold?: boolean; size?: number } = {}): number {
  if (!text) return 0;
  pdf.font(style.bold ? 'bold' : 'regular').fontSize(style.size ?? SIZES.body);
  return pdf.heightOfString(text, { width });
}

/** Rows of "label: value", the values right-aligned; answers the y below them. */
export function writePairs(pdf: Pdf, pairs: [string, string][], x: number, y: number, width: number): number {
  const labelWidth = Math.min(95, width / 2);
  for (const [label, value] of pairs) {
    const height = Math.max(
      write(pdf, label, x, y, labelWidth, { color: COLORS.muted }),
      write(pdf, value, x + labelWidth, y, width - labelWidth, { align: 'right' }),
    );
    y += height + 2;
  }
  return y;
}

export const inner = (column: Column) => column.width - 2 * CELL_PADDING;
export const rowStyle = (header: boolean) => (header ? { bold: true, size: SIZES.small } : {});

/** The height of a row of cells: its tallest cell's. */
export const rowHeight = (pdf: Pdf, cells: string[], columns: Column[], header = false) =>
  Math.max(...columns.map((column, i) => measure(pdf, cells[i]!, inner(column), rowStyle(header)))) + 2 * CELL_PADDING;

/** One row of cells `height` high (the header's in bold on a band). */
export function writeRow(
  pdf: Pdf,
  cells: string[],
  columns: Column[],
  frame: Frame,
  y: number,
  height: number,
  header = false,
) {
  const style = rowStyle(header);
  if (header) pdf.rect(frame.left, y, frame.width, height).fill(COLORS.band);
  let x = frame.left;
  columns.forEach((column, i) => {
    write(pdf, cells[i]!, x + CELL_PADDING, y + CELL_PADDING, inner(column), { ...style, align: column.align });
    x += column.width;
  });
  if (!header) {
    pdf
      .moveTo(frame.left, y + height)
      .lineTo(frame.right, y + height)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
  }
}
