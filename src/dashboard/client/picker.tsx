// Choosing a record wherever a form names one (a deal's contact, a leave's
// employee): a combobox that searches the whole list on the server as you type
// (not the first hundred), and shows beside each name what tells two apart (an
// email, a number). Keyboard: arrows move, Enter chooses, Escape closes. The
// chosen id travels in a hidden input named `name`, so a form reads it as any
// other field.
import { useEffect, useRef, useState } from 'preact/hooks';
import { graphql } from './api.js';
import { describedBy, FieldNotes } from './forms.js';

export interface PickerSource {
  /** The Query list field: `contacts`. */
  field: string;
  /** The single-record Query field, to show the name of a value already chosen: `contact`. */
  one: string;
  /** What to select of a row (id is added). */
  selection: string;
  /** The row's name and what tells it apart from another of the same name. */
  describe(row: Record<string, unknown>): { label: string; detail?: string };
  /** Whether the list takes `q` (a text search); without it the first rows are offered. */
  search?: boolean;
}

export interface Option {
  id: string;
  label: string;
  detail?: string;
}

const SHOWN = 10;

function toOption(source: PickerSource, row: Record<string, unknown>): Option {
  return { id: String(row.id), ...source.describe(row) };
}

export function RecordPicker({
  label,
  name,
  source,
  value,
  onChange,
  error,
  hint,
  required,
}: {
  label: string;
  name: string;
  source: PickerSource;
  /** The chosen record's id, or '' for none. */
  value?: string;
  onChange?: (option: Option | undefined) => void;
  error?: string;
  hint?: string;
  required?: boolean;
}) {
  const id = `field-${name}`;
  const listId = `${id}-options`;
  const [chosen, setChosen] = useState<Option | undefined>();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<Option[]>([]);
  const [active, setActive] = useState(-1);
  const [searching, setSearching] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  // A value given from outside (an edit form's current contact): its name, read once.
  useEffect(() => {
    if (!value) {
      setChosen(undefined);
      setText('');
      return;
    }
    if (chosen?.id === value) return;
    let current = true;
    graphql<Record<string, Record<string, unknown>>>(
      `query PickerValue($id: ID!) { ${source.one}(id: $id) { id ${source.selection} } }`,
      { id: value },
    ).then(
      (data) => {
        const row = data[source.one];
        if (!current || !row) return;
        const option = toOption(source, row);
        setChosen(option);
        setText(option.label);
      },
      () => current && setText(value),
    );
    return () => void (current = false);
  }, [value]);

  // The options for what is typed, a moment after the typing stops; an answer to an older text is dropped.
  useEffect(() => {
    if (!open) return;
    let current = true;
    const timer = setTimeout(() => {
      setSearching(true);
      const q = text.trim() && text !== chosen?.label ? text.trim() : undefined;
      const args = source.search ? '($q: String, $limit: Int) ' : '($limit: Int) ';
      const pass = source.search ? 'q: $q, limit: $limit' : 'limit: $limit';
      graphql<Record<string, { data: Record<string, unknown>[] }>>(
        `query PickerOptions${args}{ ${source.field}(${pass}) { data { id ${source.selection} } } }`,
        source.search ? { q, limit: SHOWN } : { limit: SHOWN },
      ).then(
        (data) => {
          if (!current) return;
          setOptions((data[source.field]?.data ?? []).map((row) => toOption(source, row)));
          setActive(-1);
          setSearching(false);
        },
        () => current && setSearching(false),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, open]);

  const choose = (option: Option | undefined) => {
    setChosen(option);
    setText(option?.label ?? '');
    setOpen(false);
    onChange?.(option);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(options.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === 'Enter' && open && active >= 0 && options[active]) {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  const described = describedBy(id, hint, error);
  return (
    <div class={`field picker${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <div class="picker-box">
        <input
          ref={input}
          id={id}
          type="text"
          role="combobox"
          autocomplete="off"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          aria-required={required || undefined}
          placeholder="Type to search"
          value={text}
          onInput={(event) => {
            setText(event.currentTarget.value);
            setOpen(true);
            if (chosen && event.currentTarget.value !== chosen.label) {
              setChosen(undefined);
              onChange?.(undefined);
            }
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown}
        />
        {chosen && !required && (
          <button
            type="button"
            class="secondary small"
            aria-label={`Clear ${label}`}
            onClick={() => {
              choose(undefined);
              input.current?.focus();
            }}
          >
            Clear
          </button>
        )}
        <input type="hidden" name={name} value={chosen?.id ?? ''} />
        {open && (
          <ul class="picker-options" id={listId} role="listbox" aria-label={label}>
            {options.map((option, i) => (
              <li
                key={option.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                class={i === active ? 'active' : undefined}
                // Chosen on mousedown: a click would first blur the input and close the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(option);
                }}
              >
                <span class="picker-label">{option.label}</span>
                {option.detail && <span class="picker-detail">{option.detail}</span>}
              </li>
            ))}
            {!options.length && (
              <li class="picker-empty" role="option" aria-disabled="true" aria-selected={false}>
                {searching ? 'Searching…' : 'Nothing matches'}
              </li>
            )}
          </ul>
        )}
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The pickers most forms need, by what they choose. */
const personName = (row: Record<string, unknown>) =>
  [row.firstName, row.lastName].filter((part) => typeof part === 'string' && part).join(' ');

export const CONTACTS: PickerSource = {
  field: 'contacts',
  one: 'contact',
  selection: 'firstName lastName email company',
  search: true,
  describe: (row) => ({
    label: personName(row) || String(row.email),
    detail: [row.email, row.company].filter(Boolean).join(' · '),
  }),
};

export const EMPLOYEES: PickerSource = {
  field: 'employees',
  one: 'employee',
  selection: 'firstName lastName email jobTitle',
  search: true,
  describe: (row) => ({
    label: personName(row),
    detail: [row.email, row.jobTitle].filter(Boolean).join(' · '),
  }),
};
