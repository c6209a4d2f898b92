// How rows become the bytes of an export file, a batch at a time (the writer
// keeps nothing between batches but the column order).
// - csv: RFC 4180 through csv-stringify (CRLF records, quoted when a cell holds a
//   comma, a quote or a line break), a header row of the row's fields, arrays and
//   objects as JSON text, and spreadsheet formulas neutralised (csv-stringify's
//   escape_formulas: a text cell starting with =, +, -, @, tab or CR gets a leading
//   ', numbers are left alone, amounts in major units too: -0.05 is a number).
//   `bom`: a UTF-8 byte order mark first, so Excel reads the file as UTF-8.
// - json: newline-delimited JSON, one row object per line.
import { stringify } from 'csv-stringify/sync';
import { DecimalAmount } from './amounts.js';
import type { ExportFormat } from './type.js';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/x-ndjson',
};

export const FILE_EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', json: 'ndjson' };

/** U+FEFF, written first: EF BB BF in UTF-8. */
export const BYTE_ORDER_MARK = '\uFEFF';

export interface RowWriter {
  /** What the file starts with (the byte order mark when asked, the CSV header row). */
  header(): string;
  /** A batch of rows, in order, as text. */
  rows(rows: readonly Record<string, unknown>[]): string;
}

/** An amount in major units is a number to the spreadsheet: written bare, never given a leading '. */
const asNumber = (value: unknown) =>
  value instanceof DecimalAmount ? { value: value.text, escape_formulas: false } : JSON.stringify(value);

const CSV_OPTIONS = { record_delimiter: 'windows', escape_formulas: true, cast: { object: asNumber } } as const;

function csvCell(value: unknown): string | number | DecimalAmount {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'string') return value;
  // Only a negative amount needs the cast (its '-'); a cell's own options cost csv-stringify ~10 µs each.
  if (value instanceof DecimalAmount) return value.text.startsWith('-') ? value : value.text;
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function rowWriter(
  format: ExportFormat,
  columns: readonly string[],
  options: { bom?: boolean } = {},
): RowWriter {
  const start = options.bom ? BYTE_ORDER_MARK : '';
  if (format === 'json') {
    return { header: () => start, rows: (rows) => rows.map((row) => `${JSON.stringify(row)}\n`).join('') };
  }
  return {
    header: () => start + stringify([columns as string[]], CSV_OPTIONS),
    rows: (rows) =>
      rows.length === 0
        ? ''
        : stringify(
            rows.map((row) => columns.map((column) => csvCell(row[column]))),
            CSV_OPTIONS,
          ),
  };
}
