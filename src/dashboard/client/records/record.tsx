// One record of any declared resource: its fields by kind, the records it
// refers to and those that refer to it (both as links), its lists of objects
// (an invoice's lines), its buttons (actions by name, Edit, Delete, each
// disabled with the reason its state gives), and its history.
import { useState } from 'preact/hooks';
import { graphql } from '../api.js';
import { can, type PageProps } from '../section.js';
import { asApiError, ErrorMessage, Link, Loaded, PageHeader, StatusBadge, useQuery } from '../ui.js';
import type { ApiError } from '../api.js';
import type { CatalogueAction } from '../../catalogue-shape.js';
import {
  fieldLabel,
  isShadowed,
  labelSelection,
  recordLabel,
  recordPath,
  recordSelection,
  resourceOf,
  title,
  type CatalogueResource,
  type Row,
} from './catalogue.js';
import { actionMutation, ActionButtons, ActionForm, buttonsOf, Reasons } from './actions.js';
import { ObjectsTable, RecordValue } from './format.js';
import { RecordHistory } from './history.js';
import { participle } from './reasons.js';
import './records.css';

/** How many records that refer to this one are shown (the rest: a link to the list). */
const RELATED = 10;

/** The records referring to this one, as the page shows them. */
const inversesOf = (entry: CatalogueResource) =>
  entry.inverses.flatMap((inverse) => {
    const source = resourceOf(inverse.resource);
    return source ? [{ ...inverse, source }] : [];
  });

function recordQuery(entry: CatalogueResource): string {
  const related = inversesOf(entry).map(
    ({ name, source }) => `${name}(limit: ${RELATED}) { data { ${labelSelection(source)} } pagination { total } }`,
  );
  return `query ${entry.graphql.type}Record($id: ID!) { ${entry.graphql.one}(id: $id) { ${recordSelection(entry)} ${related.join(' ')} } }`;
}

interface Related {
  data: Row[];
  pagination: { total: number };
}

export function RecordPage({ entry, viewer, params }: PageProps & { entry: CatalogueResource }) {
  const result = useQuery<Record<string, Row>>(recordQuery(entry), { id: params.id });
  const [open, setOpen] = useState<CatalogueAction>();
  const [notice, setNotice] = useState<string>();
  const [failure, setFailure] = useState<ApiError>();
  const [changes, setChanges] = useState(0);
  const done = (action: CatalogueAction) => {
    setOpen(undefined);
    setNotice(`${participle(action.label).replace(/^./, (c) => c.toUpperCase())}.`);
    setChanges((n) => n + 1);
    result.reload();
  };
  const run = (record: Row) => (action: CatalogueAction) => {
    setNotice(undefined);
    setFailure(undefined);
    graphql(actionMutation(entry, action), { id: record.id }).then(
      () => done(action),
      (caught: unknown) => setFailure(asApiError(caught)),
    );
  };
  const writable = can(viewer, entry.area.write);
  return (
    <Loaded query={result}>
      {(data) => {
        const record = data[entry.graphql.one]!;
        const buttons = buttonsOf(entry, record);
        return (
          <>
            <PageHeader title={recordLabel(entry, record)}>
              {writable && (
                <ActionButtons
                  entry={entry}
                  record={record}
                  onRun={run(record)}
                  onOpen={(action) => {
                    setNotice(undefined);
                    setOpen(action);
                  }}
                />
              )}
            </PageHeader>
            {writable && <Reasons buttons={[...buttons.actions, buttons.edit, buttons.remove]} />}
            {notice && (
              <p class="notice" role="status">
                {notice}
              </p>
            )}
            <ErrorMessage error={failure} />
            {open && (
              <ActionForm
                entry={entry}
                action={open}
                record={record}
                onDone={() => done(open)}
                onCancel={() => setOpen(undefined)}
              />
            )}
            <Facts entry={entry} record={record} />
            {entry.fields
              .filter((field) => field.kind === 'objects')
              .map((field) => (
                <section key={field.name} aria-labelledby={`objects-${field.name}`}>
                  <h2 id={`objects-${field.name}`}>{fieldLabel(field.name)}</h2>
                  <ObjectsTable field={field} items={(record[field.name] as Row[] | null) ?? []} parent={record} />
                </section>
              ))}
            {inversesOf(entry).map((inverse) => (
              <RelatedRecords
                key={inverse.name}
                inverse={inverse}
                related={record[inverse.name] as unknown as Related}
                record={record}
                canCreate={can(viewer, inverse.source.area.write)}
              />
            ))}
            <RecordHistory objectId={record.id} reload={changes} />
            <p>
              <Link href={entry.path}>All {entry.noun[1]}</Link>
            </p>
          </>
        );
      }}
    </Loaded>
  );
}

/** The record's plain fields as a definition list; the id last. */
function Facts({ entry, record }: { entry: CatalogueResource; record: Row }) {
  const shown = entry.fields.filter(
    (field) => field.kind !== 'objects' && field.name !== 'id' && !isShadowed(entry, field),
  );
  const label = (name: string) =>
    name === 'createdAt' ? 'Created' : name === 'updatedAt' ? 'Updated' : fieldLabel(name);
  return (
    <dl class="facts panel record-facts">
      {shown.map((field) => (
        <div class="fact" key={field.name}>
          <dt>{label(field.name)}</dt>
          <dd>
            <RecordValue entry={entry} field={field} row={record} />
          </dd>
        </div>
      ))}
      <div class="fact">
        <dt>ID</dt>
        <dd>
          <code>{record.id}</code>
        </dd>
      </div>
    </dl>
  );
}

/** The records naming this one (a contact's deals): links, the state of each, the rest in their list. */
function RelatedRecords({
  inverse,
  related,
  record,
  canCreate,
}: {
  inverse: { name: string; field: string; source: CatalogueResource };
  related: Related | undefined;
  record: Row;
  canCreate: boolean;
}) {
  const { source, field, name } = inverse;
  const heading = name === source.graphql.many ? title(source) : fieldLabel(name);
  const filterable = source.list.some((argument) => argument.name === field);
  const creatable =
    canCreate && source.graphql.create && source.input?.some((input) => input.name === field && !input.updateOnly);
  const id = `related-${name}`;
  const rows = related?.data ?? [];
  const total = related?.pagination.total ?? 0;
  const state = source.lifecycle?.field;
  return (
    <section class="related" aria-labelledby={id}>
      <div class="related-header">
        <h2 id={id}>{heading}</h2>
        {creatable && (
          <Link class="button secondary small" href={`${source.path}/new?${field}=${encodeURIComponent(record.id)}`}>
            New {source.noun[0]}
          </Link>
        )}
      </div>
      {rows.length ? (
        <ul class="plain-list">
          {rows.map((row) => (
            <li key={row.id}>
              <Link href={recordPath(source, row.id)}>{recordLabel(source, row)}</Link>
              {state && (
                <>
                  {' '}
                  <StatusBadge value={row[state] as string} />
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">None.</p>
      )}
      {total > rows.length && filterable && (
        <p>
          <Link href={`${source.path}?${field}=${encodeURIComponent(record.id)}`}>
            All {total} {heading.toLowerCase()}
          </Link>
        </p>
      )}
    </section>
  );
}
