// Creating and editing a record of any declared resource: a form generated
// from its create or update input (inputs.tsx), the API's message beside the
// field it names. A new record may start with values from the URL (a contact's
// "New deal" gives its contactId); an edit sends only what changed, and a
// record its state keeps from edits says so instead of offering the form.
import { useLocation, navigate } from '../route.js';
import type { PageProps } from '../section.js';
import { ErrorMessage, Link, Loaded, PageHeader, useQuery, useSubmit } from '../ui.js';
import { graphql } from '../api.js';
import { recordLabel, recordPath, recordSelection, type CatalogueResource, type Row } from './catalogue.js';
import { fieldsFor, InputControl, isPriced, readInput, shownBeside, type Mode } from './inputs.js';
import { onlyIn } from './reasons.js';
import './records.css';

export function NewRecordPage({ entry }: PageProps & { entry: CatalogueResource }) {
  const { query } = useLocation();
  // Values the URL gives for fields of the create (`?contactId=con_...`).
  const given = Object.fromEntries(
    (entry.input ?? []).flatMap((field) => (query.get(field.name) ? [[field.name, query.get(field.name)]] : [])),
  );
  return (
    <>
      <PageHeader title={`New ${entry.noun[0]}`} />
      <RecordForm entry={entry} mode="create" values={given} />
    </>
  );
}

export function EditRecordPage({ entry, params }: PageProps & { entry: CatalogueResource }) {
  const result = useQuery<Record<string, Row>>(
    `query ${entry.graphql.type}Edit($id: ID!) { ${entry.graphql.one}(id: $id) { ${recordSelection(entry)} } }`,
    { id: params.id },
  );
  return (
    <Loaded query={result}>
      {(data) => {
        const record = data[entry.graphql.one]!;
        const { lifecycle } = entry;
        const state = lifecycle && record[lifecycle.field];
        const locked = lifecycle && !lifecycle.editableIn.includes(state as string);
        return (
          <>
            <PageHeader title={`Edit ${recordLabel(entry, record)}`} />
            {locked ? (
              <p class="notice">
                {onlyIn(entry, lifecycle.editableIn, 'edited', state)}{' '}
                <Link href={recordPath(entry, record.id)}>Back to the {entry.noun[0]}</Link>
              </p>
            ) : (
              <RecordForm entry={entry} mode="update" values={record} record={record} />
            )}
          </>
        );
      }}
    </Loaded>
  );
}

function RecordForm({
  entry,
  mode,
  values,
  record,
}: {
  entry: CatalogueResource;
  mode: Exclude<Mode, 'action'>;
  values: Record<string, unknown>;
  record?: Row;
}) {
  const fields = fieldsFor(entry.input ?? [], mode);
  const { submit, busy, error, fieldError } = useSubmit(async (form: HTMLFormElement) => {
    const input = readInput(form, fields, mode, record);
    if (record) {
      if (Object.keys(input).length) {
        await graphql(
          `mutation Update($id: ID!, $input: ${entry.graphql.updateInput}!) { ${entry.graphql.update}(id: $id, input: $input) { id } }`,
          { id: record.id, input },
        );
      }
      navigate(recordPath(entry, record.id));
    } else {
      const created = await graphql<Record<string, { id: string }>>(
        `mutation Create($input: ${entry.graphql.createInput}!) { ${entry.graphql.create}(input: $input) { id } }`,
        { input },
      );
      navigate(recordPath(entry, created[entry.graphql.create!]!.id));
    }
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit(event.currentTarget as HTMLFormElement);
  };
  const currency = typeof values.currency === 'string' ? values.currency : undefined;
  const priced = isPriced(fields, record);
  return (
    <form class="stacked panel record-form" onSubmit={onSubmit} noValidate>
      {error && !shownBeside(fields, error.field) && <ErrorMessage error={error} />}
      {fields.map((field) => (
        <InputControl
          key={field.name}
          field={field}
          mode={mode}
          value={values[field.name]}
          currency={currency}
          priced={priced}
          error={fieldError}
        />
      ))}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : `${record ? 'Save' : 'Create'} ${entry.noun[0]}`}
        </button>
        <Link class="button secondary" href={record ? recordPath(entry, record.id) : entry.path}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
