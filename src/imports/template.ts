// The CSV template of a resource's import: a header row of the fields its create
// takes (the API's names, in the input's order) and, when the declaration has
// examples, one row of its first example, written as an export writes cells
// (lists as JSON, a phone's leading + neutralised), so the template imports as it is.
import { rowWriter } from '../graphql/system/export/format.js';
import type { Importable } from './importable.js';

export function importTemplate({ input, resource }: Importable): string {
  const columns = Object.entries(input.fields)
    .filter(([, field]) => !field.updateOnly)
    .map(([name]) => name);
  const writer = rowWriter('csv', columns);
  const example = resource.examples?.create(1);
  return writer.header() + (example ? writer.rows([example]) : '');
}
