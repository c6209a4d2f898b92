// Webhooks: the organization's endpoints with their status (and why one is
// disabled), and a new endpoint whose signing secret is shown once.
import { useState } from 'preact/hooks';
import type { PageProps } from '../../section.js';
import { Link, Loaded, PageHeader, ShownOnce, formatDateTime, useQuery } from '../../ui.js';
import { WebhookForm } from './webhook-form.js';
import { WEBHOOK_FIELDS, type ShownSecret, type Webhook } from './webhook-types.js';

const WEBHOOKS = `query Webhooks { webhooks(limit: 100, sort: createdAt_desc) { data { ${WEBHOOK_FIELDS} } } }`;

export function WebhooksPage(_: PageProps) {
  const webhooks = useQuery<{ webhooks: { data: Webhook[] } }>(WEBHOOKS);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<ShownSecret>();
  return (
    <>
      <PageHeader title="Webhooks">
        {!creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New webhook
          </button>
        )}
      </PageHeader>
      <p class="muted">Events of the types you choose are POSTed, signed, to each endpoint.</p>
      {secret && <ShownOnce title={secret.title} values={secret.values} onDone={() => setSecret(undefined)} />}
      {creating && (
        <WebhookForm
          onSaved={(webhook) => {
            setCreating(false);
            if (webhook.secret) {
              setSecret({
                title: 'Webhook created',
                values: [{ label: 'Signing secret', value: webhook.secret }],
              });
            }
            webhooks.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <Loaded query={webhooks}>
        {({ webhooks: { data } }) =>
          data.length === 0 ? (
            <p class="empty">No webhook yet.</p>
          ) : (
            <div class="table-wrap">
              <table class="stack-narrow">
                <caption class="visually-hidden">Webhook endpoints</caption>
                <thead>
                  <tr>
                    <th scope="col">Endpoint</th>
                    <th scope="col">Status</th>
                    <th scope="col">Events</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((webhook) => (
                    <tr key={webhook.id}>
                      <td>
                        <Link href={`/developers/webhooks/${webhook.id}`}>{webhook.url}</Link>
                        {webhook.description && <div class="muted">{webhook.description}</div>}
                      </td>
                      <td data-label="Status">
                        <WebhookStatus webhook={webhook} />
                      </td>
                      <td data-label="Events">
                        {webhook.events.length} {webhook.events.length === 1 ? 'type' : 'types'}
                      </td>
                      <td data-label="Created">{formatDateTime(webhook.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </>
  );
}

/** Enabled, or disabled with when and why. */
export function WebhookStatus({ webhook }: { webhook: Webhook }) {
  if (webhook.status === 'enabled') return <span class="status-ok">Enabled</span>;
  return (
    <span>
      <span class="status-bad">Disabled</span>
      {webhook.disabledAt && <span class="muted"> since {formatDateTime(webhook.disabledAt)}</span>}
      {webhook.disabledReason && <div class="muted">{webhook.disabledReason}</div>}
    </span>
  );
}
