// One webhook: its status and actions (test event, edit, new secret, delete),
// a chart of the last day's deliveries and the deliveries log. Deliveries are
// made by the worker, after the page asked for them: the log's first page asks
// again every few seconds (quietly, keeping the reader's place and focus, and
// saying how many arrived), and Refresh asks at once.
import { useEffect, useRef, useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { navigate, setQuery, useLocation } from '../../route.js';
import type { PageProps } from '../../section.js';
import {
  CodeTags,
  ConfirmButton,
  ErrorMessage,
  Link,
  Loaded,
  PageHeader,
  ShownOnce,
  usePolling,
  useQuery,
  useSubmit,
} from '../../ui.js';
import { DeliveryChart, type DeliveryHour } from './delivery-chart.js';
import { DELIVERY_FIELDS, DeliveryLog, type DeliveryPage } from './delivery-log.js';
import './developers.css';
import { WebhookForm } from './webhook-form.js';
import { ROTATE_WEBHOOK_SECRET, WEBHOOK_FIELDS, type ShownSecret, type Webhook } from './webhook-types.js';
import { WebhookStatus } from './webhooks.js';

const LIMIT = 20;
const WEBHOOK = `query Webhook($id: ID!, $page: Int!, $limit: Int!, $status: WebhookDeliveryStatus) {
  webhook(id: $id) {
    ${WEBHOOK_FIELDS}
    deliveries(page: $page, limit: $limit, status: $status) {
      data { ${DELIVERY_FIELDS} }
      pagination { page limit total }
    }
  }
  webhookDeliveryStats(webhookId: $id, hours: 24) { hour succeeded failed }
}`;
const TEST = `mutation TestWebhook($id: ID!) { testWebhook(id: $id) { count } }`;
const DELETE = `mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }`;

type Data = { webhook: Webhook & { deliveries: DeliveryPage }; webhookDeliveryStats: DeliveryHour[] };

/** How often the log's first page asks for new deliveries. */
export const POLL_MS = 3000;

/** "2 new deliveries" when a quiet refresh brought some (for a polite live region), else undefined. */
function useArrivals(deliveries: DeliveryPage | undefined, watching: boolean): string | undefined {
  const seen = useRef<Set<string> | undefined>(undefined);
  const [said, setSaid] = useState<string>();
  useEffect(() => {
    if (!deliveries) return;
    const ids = deliveries.data.map((delivery) => delivery.id);
    const fresh = seen.current && watching ? ids.filter((id) => !seen.current!.has(id)).length : 0;
    seen.current = new Set([...(seen.current ?? []), ...ids]);
    if (fresh) setSaid(fresh === 1 ? '1 new delivery' : `${fresh} new deliveries`);
  }, [deliveries, watching]);
  return said;
}

export function WebhookPage({ params }: PageProps) {
  const { query } = useLocation();
  const page = Number(query.get('page')) || 1;
  const failedOnly = query.get('status') === 'failed';
  const data = useQuery<Data>(WEBHOOK, {
    id: params.id,
    page,
    limit: LIMIT,
    status: failedOnly ? 'failed' : null,
  });
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<ShownSecret>();
  const [notice, setNotice] = useState<string>();
  // Only the first page changes as deliveries arrive; another page stays as read, and so does a form.
  const watching = page === 1 && !editing;
  usePolling(data.refresh, POLL_MS, watching);
  const arrivals = useArrivals(data.data?.webhook.deliveries, watching);
  /** What was asked for, and (when something was queued) where to see it delivered. */
  const queued = (what: string, count = 1) => {
    setNotice(count ? `${what} The worker delivers it in a moment: it appears in the log below.` : what);
    data.reload();
  };
  const test = useSubmit(async () => {
    await graphql(TEST, { id: params.id });
    queued('A test event is queued.');
  });
  const rotate = useSubmit(async () => {
    const { rotateWebhookSecret } = await graphql<{ rotateWebhookSecret: { secret: string } }>(ROTATE_WEBHOOK_SECRET, {
      id: params.id,
    });
    setSecret({
      title: 'A new signing secret',
      values: [{ label: 'Signing secret', value: rotateWebhookSecret.secret }],
    });
  });
  const remove = useSubmit(async () => {
    await graphql(DELETE, { id: params.id });
    navigate('/developers/webhooks');
  });
  return (
    <>
      <p>
        <Link href="/developers/webhooks">← Webhooks</Link>
      </p>
      <PageHeader title="Webhook">
        <button type="button" onClick={() => void test.submit()} disabled={test.busy}>
          Send test event
        </button>
        <button type="button" class="secondary" onClick={() => data.reload()}>
          Refresh
        </button>
      </PageHeader>
      <ErrorMessage error={test.error ?? rotate.error ?? remove.error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <p class="visually-hidden" role="status">
        {arrivals}
      </p>
      {secret && <ShownOnce title={secret.title} values={secret.values} onDone={() => setSecret(undefined)} />}
      <Loaded query={data}>
        {({ webhook, webhookDeliveryStats }) => (
          <>
            {editing ? (
              <WebhookForm
                webhook={webhook}
                onSaved={() => {
                  setEditing(false);
                  data.reload();
                }}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <section class="panel" aria-label="Endpoint">
                <dl class="facts">
                  <dt>URL</dt>
                  <dd>
                    <code>{webhook.url}</code>
                  </dd>
                  <dt>Status</dt>
                  <dd>
                    <WebhookStatus webhook={webhook} />
                  </dd>
                  <dt>Description</dt>
                  <dd>{webhook.description ?? '—'}</dd>
                  <dt>Events</dt>
                  <dd>
                    <CodeTags values={webhook.events} />
                  </dd>
                </dl>
                <div class="actions">
                  <button type="button" class="secondary" onClick={() => setEditing(true)}>
                    Edit
                  </button>
                  <ConfirmButton
                    class="secondary"
                    question="Make a new signing secret? The current one stops at once: update your receiver."
                    onConfirm={() => rotate.submit()}
                  >
                    Rotate secret
                  </ConfirmButton>
                  <ConfirmButton
                    question="Delete this webhook? Nothing more is delivered to it."
                    onConfirm={() => remove.submit()}
                  >
                    Delete webhook
                  </ConfirmButton>
                </div>
              </section>
            )}
            <DeliveryChart hours={webhookDeliveryStats} />
            <DeliveryLog
              webhookId={webhook.id}
              deliveries={webhook.deliveries}
              failedOnly={failedOnly}
              onFailedOnly={(on) => setQuery({ status: on ? 'failed' : undefined, page: undefined })}
              onPage={(next) => setQuery({ page: next })}
              onQueued={queued}
            />
          </>
        )}
      </Loaded>
    </>
  );
}
