// A RecordPicker source for any resource of the catalogue: its list searched
// with `q` when it takes one, each record named as everywhere (recordLabel)
// with what tells two of one name apart beside it (an email, a job title or
// company, a state, a date).
import type { PickerSource } from '../picker.js';
import { humanize } from '../ui.js';
import { isLongText, labelSelection, recordLabel, type CatalogueResource } from './catalogue.js';

const sources = new Map<string, PickerSource>();

export function pickerSourceOf(entry: CatalogueResource): PickerSource {
  let source = sources.get(entry.key);
  if (source) return source;
  // What a record is usually named by (a contact's email names it only when it has no name: a detail).
  const named = new Set(entry.label[0] ?? []);
  const email = entry.fields.find((field) => field.kind === 'email' && !named.has(field.name));
  const text = entry.fields.find(
    (field) => field.kind === 'text' && !named.has(field.name) && !isLongText(field) && field.name !== 'currency',
  );
  const date = entry.fields.find((field) => field.kind === 'date' && !named.has(field.name));
  const state = entry.lifecycle?.field;
  const details = [email?.name, text?.name, date?.name].filter((name): name is string => !!name);
  source = {
    field: entry.graphql.many,
    one: entry.graphql.one,
    selection: [labelSelection(entry), ...details].join(' ').replace(/^id /, ''),
    search: entry.list.some((argument) => argument.kind === 'search'),
    describe: (row) => ({
      label: recordLabel(entry, row),
      detail: [...details.map((name) => row[name]), state && row[state] ? humanize(String(row[state])) : undefined]
        .filter((value) => value !== null && value !== undefined && value !== '')
        .join(' · '),
    }),
  };
  sources.set(entry.key, source);
  return source;
}
