// A record's buttons: Edit, Delete and each of its actions (its lifecycle's and
// the record's), named by the action. One its state does not allow stays
// focusable, aria-disabled, with the reason as its description; an action that
// takes input opens a small form generated from that input.
import { graphql } from '../api.js';
import { navigate } from '../route.js';
import { ErrorMessage, Link, useSubmit } from '../ui.js';
import type { CatalogueAction } from '../../catalogue-shape.js';
import { recordPath, type CatalogueResource, type Row } from './catalogue.js';
import { fieldsFor, InputControl, isPriced, readInput, shownBeside } from './inputs.js';
import { onlyIn, participle } from './reasons.js';

export interface Button {
  key: string;
  label: string;
  /** Why it cannot be used now; none: it can. */
  reason?: string;
}

/** The record's buttons and why any is not available now. */
export function buttonsOf(
  entry: CatalogueResource,
  record: Row,
): { edit?: Button; remove?: Button; actions: Button[] } {
  const state = entry.lifecycle ? record[entry.lifecycle.field] : undefined;
  const { lifecycle, graphql: names } = entry;
  const edit = names.update && {
    key: 'edit',
    label: 'Edit',
    reason:
      lifecycle && !lifecycle.editableIn.includes(state as string)
        ? onlyIn(entry, lifecycle.editableIn, 'edited', state)
        : undefined,
  };
  const remove = names.delete && {
    key: 'delete',
    label: 'Delete',
    reason:
      lifecycle?.deletableIn && !lifecycle.deletableIn.includes(state as string)
        ? onlyIn(entry, lifecycle.deletableIn, 'deleted', state)
        : undefined,
  };
  const actions = entry.actions.map((action) => ({
    key: action.name,
    label: action.label,
    reason:
      action.from && !action.from.includes(state as string)
        ? onlyIn(entry, action.from, participle(action.label), state)
        : undefined,
  }));
  return { edit: edit || undefined, remove: remove || undefined, actions };
}

const reasonId = (button: Button) => `reason-${button.key}`;

/** A button the state does not allow: focusable, saying why (aria-describedby). */
function Unavailable({ button }: { button: Button }) {
  return (
    <button
      type="button"
      class="secondary"
      aria-disabled="true"
      aria-describedby={reasonId(button)}
      onClick={(event) => event.preventDefault()}
    >
      {button.label}
    </button>
  );
}

/** The reasons of the unavailable buttons, shown under them (each a button's description). */
export function Reasons({ buttons }: { buttons: (Button | undefined)[] }) {
  const unavailable = buttons.filter((button): button is Button => !!button?.reason);
  if (!unavailable.length) return null;
  return (
    <ul class="reasons">
      {unavailable.map((button) => (
        <li key={button.key} id={reasonId(button)}>
          {button.reason}
        </li>
      ))}
    </ul>
  );
}

export function ActionButtons({
  entry,
  record,
  onRun,
  onOpen,
}: {
  entry: CatalogueResource;
  record: Row;
  /** Runs an action that takes no input. */
  onRun(action: CatalogueAction): void;
  /** Opens the form of an action that takes input. */
  onOpen(action: CatalogueAction): void;
}) {
  const { edit, remove, actions } = buttonsOf(entry, record);
  const remover = useSubmit(async () => {
    if (!window.confirm(`Delete this ${entry.noun[0]}? This cannot be undone.`)) return;
    await graphql(`mutation Delete($id: ID!) { ${entry.graphql.delete}(id: $id) }`, { id: record.id });
    navigate(entry.path);
  });
  return (
    <>
      {entry.actions.map((action, i) =>
        actions[i]!.reason ? (
          <Unavailable key={action.name} button={actions[i]!} />
        ) : (
          <button key={action.name} type="button" onClick={() => (action.input ? onOpen(action) : onRun(action))}>
            {action.label}
          </button>
        ),
      )}
      {edit &&
        (edit.reason ? (
          <Unavailable button={edit} />
        ) : (
          <Link class="button secondary" href={`${recordPath(entry, record.id)}/edit`}>
            Edit
          </Link>
        ))}
      {remove &&
        (remove.reason ? (
          <Unavailable button={remove} />
        ) : (
          <button type="button" class="danger" disabled={remover.busy} onClick={() => void remover.submit()}>
            Delete
          </button>
        ))}
      {remover.error && <ErrorMessage error={remover.error} />}
    </>
  );
}

/** The mutation of an action, with its input when it takes one. */
export function actionMutation(entry: CatalogueResource, action: CatalogueAction): string {
  if (!action.input) return `mutation Act($id: ID!) { ${action.mutation}(id: $id) { id } }`;
  const type = `${action.input.type}${action.input.optional ? '' : '!'}`;
  return `mutation Act($id: ID!, $input: ${type}) { ${action.mutation}(id: $id, input: $input) { id } }`;
}

/** The form of an action that takes input (Reject: a reason; Terminate: the last day). */
export function ActionForm({
  entry,
  action,
  record,
  onDone,
  onCancel,
}: {
  entry: CatalogueResource;
  action: CatalogueAction;
  record: Row;
  onDone(): void;
  onCancel(): void;
}) {
  const fields = fieldsFor(action.input?.fields ?? [], 'action');
  const { submit, busy, error, fieldError } = useSubmit(async (form: HTMLFormElement) => {
    const input = readInput(form, fields, 'action', record);
    await graphql(actionMutation(entry, action), { id: record.id, input });
    onDone();
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit(event.currentTarget as HTMLFormElement);
  };
  const heading = `${action.label} this ${entry.noun[0]}`;
  return (
    <form class="stacked panel action-form" onSubmit={onSubmit} noValidate aria-label={heading}>
      <h2>{heading}</h2>
      {error && !shownBeside(fields, error.field) && <ErrorMessage error={error} />}
      {fields.map((field) => (
        <InputControl
          key={field.name}
          field={field}
          mode="action"
          value={undefined}
          currency={typeof record.currency === 'string' ? record.currency : undefined}
          priced={isPriced(fields, record)}
          error={fieldError}
        />
      ))}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Working…' : `${action.label} ${entry.noun[0]}`}
        </button>
        {/* Not "Cancel": a leave request's action is called that. */}
        <button type="button" class="secondary" onClick={onCancel}>
          Close
        </button>
      </div>
    </form>
  );
}
