// An import file's records, streamed from its bytes: a CSV through csv-parse (RFC
// 4180: quoted cells, doubled quotes, line breaks in quotes, CRLF or LF, a UTF-8 byte
// order mark skipped), its first record the header of API field names; NDJSON one
// JSON object per line (blank lines skipped). Each record is numbered from 1 (the
// first after a CSV's header, the first line of NDJSON) and is either the object
// the API's body would be, or why it cannot be one (a line that is not JSON, a CSV
// row with more cells than the header). Memory holds a chunk and the record in hand.
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import type { Importable } from './importable.js';
import { csvRecordReader, withoutIgnored } from './cells.js';

export const IMPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_CONTENT_TYPES: Record<ImportFormat, string> = {
  csv: 'text/csv',
  ndjson: 'application/x-ndjson',
};

export type FileRecord =
  | { row: number; value: Record<string, unknown>; refusal?: undefined }
  | { row: number; value?: undefined; refusal: { field: string | null; message: string } };

/** A file that cannot be read at all (a CSV quote never closed, no header): the import fails saying so. */
export class UnreadableFile extends Error {}

async function* csvRecords(bytes: Readable, importable: Importable): AsyncGenerator<FileRecord> {
  const parser = bytes.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
  let read: ((cells: readonly string[]) => Record<string, unknown>) | undefined;
  let width = 0;
  let row = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (!read) {
        const header = cells.map((name) => name.trim());
        const blank = header.findIndex((name) => name === '');
        if (blank >= 0) throw new UnreadableFile(`The header's column ${blank + 1} has no field name`);
        const twice = header.find((name, i) => header.indexOf(name) !== i);
        if (twice) throw new UnreadableFile(`The header names '${twice}' twice`);
        read = csvRecordReader(header, importable.input, importable.ignored);
        width = header.length;
        continue;
      }
      row++;
      if (cells.length > width) {
        yield {
          row,
          refusal: { field: null, message: `The row has ${cells.length} cells; the header names ${width} fields` },
        };
      } else {
        yield { row, value: read(cells) };
      }
    }
  } catch (error) {
    if (error instanceof Error && (error as { code?: string }).code?.startsWith('CSV_')) {
      throw new UnreadableFile(`The CSV cannot be read after row ${row}: ${error.message}`);
    }
    throw error;
  }
  if (!read) throw new UnreadableFile('The file is empty: a CSV starts with a header row of field names');
}

async function* ndjsonRecords(bytes: Readable, importable: Importable): AsyncGenerator<FileRecord> {
  const lines = createInterface({ input: bytes, crlfDelay: Infinity });
  let row = 0;
  for await (const raw of lines) {
    const line = row === 0 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    row++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      yield { row, refusal: { field: null, message: 'The line is not valid JSON' } };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { row, refusal: { field: null, message: 'The line must be a JSON object' } };
      continue;
    }
    yield { row, value: withoutIgnored(value as Record<string, unknown>, importable.ignored) };
  }
}

/** The file's records in order. */
export function fileRecords(
  bytes: AsyncIterable<Buffer>,
  format: ImportFormat,
  importable: Importable,
): AsyncGenerator<FileRecord> {
  const stream = Readable.from(bytes, { objectMode: false });
  return format === 'csv' ? csvRecords(stream, importable) : ndjsonRecords(stream, importable);
}
