// A list's search and filters, from its list arguments: `q` as a search box,
// an enum or a flag as a select, a date as a date field, a reference as a
// record picker; any other filter the URL holds (an exact email) as a chip
// that removes it. Each applies at once and goes into the URL.
import { RecordPicker } from '../picker.js';
import { setQuery } from '../route.js';
import { Field, humanize, Select } from '../ui.js';
import { fieldLabel, resourceOf, title, type CatalogueResource } from './catalogue.js';
import { pickerSourceOf } from './picker-source.js';

export function ListFilters({ entry, url }: { entry: CatalogueResource; url: URLSearchParams }) {
  const search = entry.list.find((argument) => argument.kind === 'search');
  const set = (name: string, value: string | undefined) => setQuery({ [name]: value, page: undefined });
  const onSearch = (event: Event) => {
    event.preventDefault();
    const q = new FormData(event.currentTarget as HTMLFormElement).get('q');
    set('q', typeof q === 'string' ? q.trim() : undefined);
  };
  const chips = entry.list.filter((argument) => argument.kind === 'text' && url.get(argument.name));
  const controls = entry.list.filter((argument) => ['enum', 'boolean', 'date', 'reference'].includes(argument.kind));
  if (!search && !controls.length && !chips.length) return null;
  return (
    <div class="toolbar list-filters">
      {search && (
        <form role="search" class="toolbar" onSubmit={onSearch} aria-label={`Search ${title(entry).toLowerCase()}`}>
          <Field label="Search" name="q" type="search" defaultValue={url.get('q') ?? ''} key={url.get('q') ?? ''} />
          <button type="submit" class="secondary">
            Search
          </button>
        </form>
      )}
      {controls.map((argument) => {
        const value = url.get(argument.name) ?? '';
        const label = fieldLabel(argument.name);
        const name = `filter-${argument.name}`;
        switch (argument.kind) {
          case 'enum':
            return (
              <Select
                key={argument.name}
                label={label}
                name={name}
                value={value}
                options={[
                  { value: '', label: 'All' },
                  ...(argument.values ?? []).map((v) => ({ value: v, label: humanize(v) })),
                ]}
                onChange={(event) => set(argument.name, event.currentTarget.value)}
              />
            );
          case 'boolean':
            return (
              <Select
                key={argument.name}
                label={label}
                name={name}
                value={value}
                options={[
                  { value: '', label: 'All' },
                  { value: 'true', label: 'Yes' },
                  { value: 'false', label: 'No' },
                ]}
                onChange={(event) => set(argument.name, event.currentTarget.value)}
              />
            );
          case 'date':
            return (
              <Field
                key={argument.name}
                label={label}
                name={name}
                type="date"
                value={value}
                onChange={(event) => set(argument.name, event.currentTarget.value)}
              />
            );
          default: {
            const target = resourceOf(argument.reference);
            if (!target) return null;
            return (
              <RecordPicker
                key={argument.name}
                label={label}
                name={name}
                source={pickerSourceOf(target)}
                value={value}
                onChange={(option) => set(argument.name, option?.id)}
              />
            );
          }
        }
      })}
      {chips.map((argument) => (
        <button
          key={argument.name}
          type="button"
          class="secondary small chip"
          aria-label={`Remove the filter ${fieldLabel(argument.name)}: ${url.get(argument.name)}`}
          onClick={() => set(argument.name, undefined)}
        >
          {fieldLabel(argument.name)}: {url.get(argument.name)} ✕
        </button>
      ))}
    </div>
  );
}
