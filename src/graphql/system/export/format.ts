// How rows become the bytes of an export file, a batch at a time (the writer
// keeps nothing between batches but the column order).
// - csv: RFC 4180 through csv-stringify (CRLF records, quoted when a cell holds a
//   comma, a quote or a line break), a header row of the REST object's fields,
//   arrays and objects as JSON text, and spreadsheet formulas neutralised
//   (csv-stringify's escape_formulas: a text cell starting with =, +, -, @, tab or
//   CR gets a leading ', numbers are left alone).
// - json: newline-delimited JSON, one REST object per line.
import { stringify } from 'csv-stringify/sync';
import type { ExportFormat } from './type.js';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/x-ndjson',
};

export const FILE_EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', json: 'ndjson' };

export interface RowWriter {
  /** What the file starts with (the CSV header row). */
  header(): string;
  /** A batch of rows, in order, as text. */
  rows(rows: readonly Record<string, unknown>[]): string;
}

const CSV_OPTIONS = { record_delimiter: 'windows', escape_formulas: true } as const;

function csvCell(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function rowWriter(format: ExportFormat, columns: readonly string[]): RowWriter {
  if (format === 'json') {
    return { header: () => '', rows: (rows) => rows.map((row) => `${JSON.stringify(row)}\n`).join('') };
  }
  return {
    header: () => stringify([columns as string[]], CSV_OPTIONS),
    rows: (rows) =>
      rows.length === 0
        ? ''
        : stringify(
            rows.map((row) => columns.map((column) => csvCell(row[column]))),
            CSV_OPTIONS,
          ),
  };
}
