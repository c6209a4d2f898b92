// A webhook's form, to create one or edit one: URL, event types grouped by
// area (each with its description; "Select all" and "Clear" for all of them and
// for each area), description, and enabled or disabled.
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { ErrorMessage, Field, Loaded, checkedValues, formValues, useQuery, useSubmit } from '../../ui.js';
import { WEBHOOK_FIELDS, type Webhook } from './webhook-types.js';
import './developers.css';

interface EventType {
  type: string;
  area: string;
  description: string;
}

const EVENT_TYPES = `query WebhookEventTypes { webhookEventTypes { type area description } }`;
const CREATE = `mutation CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { ${WEBHOOK_FIELDS} secret } }`;
const UPDATE = `mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`;
const AREAS: Record<string, string> = { crm: 'CRM', hr: 'HR', finance: 'Finance', system: 'System' };
const FIELDS = ['url', 'events', 'description', 'status'];

export function WebhookForm({
  webhook,
  onSaved,
  onCancel,
}: {
  /** The webhook to edit; none to create one. */
  webhook?: Webhook;
  onSaved: (webhook: Webhook & { secret?: string }) => void;
  onCancel: () => void;
}) {
  const types = useQuery<{ webhookEventTypes: EventType[] }>(EVENT_TYPES);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(webhook?.events ?? []));
  const choose = (values: readonly string[], on: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      for (const value of values) {
        if (on) next.add(value);
        else next.delete(value);
      }
      return next;
    });
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    const values = formValues(form);
    const input = {
      url: values.url ?? '',
      events: checkedValues(form, 'events'),
      description: values.description ?? null,
      status: values.status ?? 'enabled',
    };
    if (webhook) {
      const { updateWebhook } = await graphql<{ updateWebhook: Webhook }>(UPDATE, { id: webhook.id, input });
      onSaved(updateWebhook);
    } else {
      const { createWebhook } = await graphql<{ createWebhook: Webhook & { secret: string } }>(CREATE, { input });
      onSaved(createWebhook);
    }
  });
  const title = webhook ? 'Edit webhook' : 'New webhook';
  const eventsError = fieldError('events');
  return (
    <form
      class="stacked panel"
      aria-labelledby="webhook-form-title"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    >
      <h2 id="webhook-form-title">{title}</h2>
      <Field
        label="URL"
        name="url"
        type="url"
        required
        defaultValue={webhook?.url}
        error={fieldError('url')}
        hint="Where events are POSTed: https to a public address (http and local addresses in development only)."
      />
      <Loaded query={types}>
        {({ webhookEventTypes }) => (
          <fieldset
            class={`checks${eventsError ? ' invalid' : ''}`}
            aria-describedby={eventsError ? 'events-error' : undefined}
          >
            <legend>Events</legend>
            <SelectTools
              what="every event type"
              values={webhookEventTypes.map((type) => type.type)}
              chosen={chosen}
              onChoose={choose}
            />
            {Object.entries(AREAS).map(([area, label]) => {
              const ofArea = webhookEventTypes.filter((type) => type.area === area);
              if (!ofArea.length) return null;
              return (
                <div class="event-area" key={area} role="group" aria-labelledby={`area-${area}`}>
                  <h3 id={`area-${area}`}>{label}</h3>
                  <SelectTools
                    what={`${label} events`}
                    values={ofArea.map((type) => type.type)}
                    chosen={chosen}
                    onChoose={choose}
                  />
                  {ofArea.map((type) => (
                    <label key={type.type}>
                      <input
                        type="checkbox"
                        name="events"
                        value={type.type}
                        checked={chosen.has(type.type)}
                        onChange={(event) => choose([type.type], event.currentTarget.checked)}
                      />
                      <span>
                        <code>{type.type}</code> <span class="muted">{type.description}</span>
                      </span>
                    </label>
                  ))}
                </div>
              );
            })}
            {eventsError && (
              <p class="field-error" id="events-error">
                {eventsError}
              </p>
            )}
          </fieldset>
        )}
      </Loaded>
      <Field
        label="Description"
        name="description"
        defaultValue={webhook?.description ?? ''}
        error={fieldError('description')}
      />
      {webhook && (
        <fieldset class="checks">
          <legend>Status</legend>
          <label>
            <input type="radio" name="status" value="enabled" defaultChecked={webhook.status === 'enabled'} />
            Enabled: events are delivered
          </label>
          <label>
            <input type="radio" name="status" value="disabled" defaultChecked={webhook.status === 'disabled'} />
            Disabled: nothing is delivered until enabled again
          </label>
        </fieldset>
      )}
      <ErrorMessage error={formError(FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {webhook ? 'Save' : 'Create webhook'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** "Select all" and "Clear" for a set of checkboxes, with how many of them are ticked. */
function SelectTools({
  what,
  values,
  chosen,
  onChoose,
}: {
  what: string;
  values: readonly string[];
  chosen: ReadonlySet<string>;
  onChoose: (values: readonly string[], on: boolean) => void;
}) {
  const ticked = values.filter((value) => chosen.has(value)).length;
  return (
    <div class="select-tools">
      <button
        type="button"
        class="secondary small"
        aria-label={`Select all: ${what}`}
        onClick={() => onChoose(values, true)}
      >
        Select all
      </button>
      <button
        type="button"
        class="secondary small"
        aria-label={`Clear: ${what}`}
        onClick={() => onChoose(values, false)}
      >
        Clear
      </button>
      <span class="muted">
        {ticked} of {values.length} chosen
      </span>
    </div>
  );
}
