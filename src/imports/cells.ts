// A CSV row becomes the JSON object the API's own body would be: each cell
// typed by the resource's input field it names (a whole number, true/false, a
// list or object as JSON text, as the export writes them), an empty cell left
// out (the field is not given), and a cell our exports formula-neutralised
// (`'=…`, `'+…`, `'-…`, `'@…`, a leading `'` before a tab or CR) read back as it
// was. A cell that does not read as its type goes through as text, so the
// resource's validation answers with the API's own message ('tags' must be an
// array, not a string).
import type { z } from 'zod';
import type { AnyResourceInput } from '../graphql/kit/inputs.js';

type CellKind = 'text' | 'number' | 'boolean' | 'json';

/** What a field's zod schema takes, as far as a cell is concerned. */
function kindOf(schema: z.ZodType): CellKind {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case 'number':
    case 'int':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
    case 'object':
    case 'record':
    case 'tuple':
      return 'json';
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'catch':
      return kindOf(def.innerType as z.ZodType);
    case 'pipe': {
      // A preprocess or transform: the typed end is the one that is not a transform.
      const [inner, outer] = [def.in as z.ZodType, def.out as z.ZodType];
      return kindOf(inner._zod.def.type === 'transform' ? outer : inner);
    }
    default:
      return 'text';
  }
}

/** What csv-stringify's escape_formulas put a `'` before. */
const NEUTRALISED = /^'[=+\-@\t\r]/;

/** The cell as it was before an export neutralised it: `'+44 20…` reads `+44 20…`. */
export const unneutralised = (cell: string) => (NEUTRALISED.test(cell) ? cell.slice(1) : cell);

function typed(cell: string, kind: CellKind): unknown {
  const text = unneutralised(cell);
  if (kind === 'number') {
    const number = Number(text.trim());
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  if (kind === 'boolean') {
    const lower = text.trim().toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : text;
  }
  if (kind === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Makes the objects of a CSV file's records from its header row, for one resource's input. */
export function csvRecordReader(
  header: readonly string[],
  input: AnyResourceInput,
  ignored: ReadonlySet<string>,
): (cells: readonly string[]) => Record<string, unknown> {
  const columns = header.map((name) => {
    const field = input.fields[name];
    return { name, skip: ignored.has(name), kind: field ? kindOf(field.schema) : ('text' as CellKind) };
  });
  return (cells) => {
    const record: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      const cell = cells[i];
      if (column.skip || cell === undefined || cell === '') return;
      record[column.name] = typed(cell, column.kind);
    });
    return record;
  };
}

/** An NDJSON line's object without the fields the import ignores (id, createdAt, an export's names). */
export function withoutIgnored(record: Record<string, unknown>, ignored: ReadonlySet<string>): Record<string, unknown> {
  if (!Object.keys(record).some((key) => ignored.has(key))) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => !ignored.has(key)));
}
