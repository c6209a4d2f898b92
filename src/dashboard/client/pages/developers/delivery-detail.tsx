// One delivery attempt, as Stripe's event pages show one: what was sent (the
// body, the request's headers with their signatures; the secret never leaves
// the server), what came back (status, headers, the start of the body as the
// log keeps it), and every attempt of the same event to this webhook, each with
// its time, duration and outcome. A redelivery says so and links its original.
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { recordPath } from '../../record-paths.js';
import type { PageProps } from '../../section.js';
import {
  ErrorMessage,
  Link,
  Loaded,
  PageHeader,
  StatusBadge,
  formatDateTime,
  usePolling,
  useQuery,
  useSubmit,
} from '../../ui.js';
import { DELIVERY_FIELDS, PendingRetry, deliveryPath, triggerLabel, type Delivery } from './delivery-log.js';
import { JsonBlock } from './json-block.js';
import { POLL_MS } from './webhook-detail.js';
import './developers.css';

interface Header {
  name: string;
  value: string;
}

type DeliveryDetail = Delivery & {
  requestHeaders: Header[] | null;
  responseHeaders: Header[] | null;
  payload: { data?: { object?: { id?: unknown } } } | null;
};

const DELIVERY = `query Delivery($webhookId: ID!, $id: ID!) {
  webhook(id: $webhookId) { id url }
  webhookDelivery(webhookId: $webhookId, id: $id) {
    ${DELIVERY_FIELDS} requestHeaders { name value } responseHeaders { name value } payload
  }
}`;
const ATTEMPTS = `query DeliveryAttempts($webhookId: ID!, $eventId: ID) {
  webhookDeliveries(webhookId: $webhookId, eventId: $eventId, sort: createdAt, limit: 100) { data { ${DELIVERY_FIELDS} } }
}`;
const RETRY = `mutation Retry($webhookId: ID!, $deliveryId: ID!) { retryWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { count } }`;

export function DeliveryPage({ params }: PageProps) {
  const detail = useQuery<{ webhook: { id: string; url: string }; webhookDelivery: DeliveryDetail }>(DELIVERY, {
    webhookId: params.id,
    id: params.deliveryId,
  });
  const delivery = detail.data?.webhookDelivery;
  return (
    <>
      <p>
        <Link href={`/developers/webhooks/${params.id}`}>← Webhook</Link>
      </p>
      <PageHeader title={delivery ? `Delivery of ${delivery.eventType}` : 'Delivery'} />
      <Loaded query={detail}>
        {({ webhook, webhookDelivery }) => (
          <DeliveryDetailView key={webhookDelivery.id} url={webhook.url} delivery={webhookDelivery} />
        )}
      </Loaded>
    </>
  );
}

function DeliveryDetailView({ url, delivery }: { url: string; delivery: DeliveryDetail }) {
  const attempts = useQuery<{ webhookDeliveries: { data: Delivery[] } }>(ATTEMPTS, {
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
  });
  const [notice, setNotice] = useState<string>();
  const all = attempts.data?.webhookDeliveries.data ?? [];
  // New attempts of the event are on their way: a retry pending, or one asked for here.
  usePolling(attempts.refresh, POLL_MS, !!notice || all.some((attempt) => attempt.retryPending));
  const retry = useSubmit(async () => {
    await graphql(RETRY, { webhookId: delivery.webhookId, deliveryId: delivery.id });
    setNotice(`The ${delivery.eventType} event is queued again: its new attempt appears below in a moment.`);
    attempts.refresh();
  });
  const original = delivery.redeliveryOf ? all.find((attempt) => attempt.id === delivery.redeliveryOf) : undefined;
  const record = recordPath(delivery.payload?.data?.object?.id);
  return (
    <>
      {delivery.redeliveryOf && (
        <p class="notice redelivery">
          <strong>Redelivery.</strong> This attempt sends again the event of{' '}
          <Link href={deliveryPath({ webhookId: delivery.webhookId, id: delivery.redeliveryOf })}>
            {original ? `the delivery of ${formatDateTime(original.createdAt)}` : 'an earlier delivery'}
          </Link>
          , with the same event id.
        </p>
      )}
      <section class="panel" aria-labelledby="summary-title">
        <h2 id="summary-title" class="visually-hidden">
          Summary
        </h2>
        <dl class="facts">
          <dt>Outcome</dt>
          <dd>
            <StatusBadge value={delivery.status} /> {delivery.statusCode ?? 'no answer'}
            {delivery.error && <span class="muted"> · {delivery.error}</span>}
            <PendingRetry delivery={delivery} />
          </dd>
          <dt>Time</dt>
          <dd>{formatDateTime(delivery.createdAt)}</dd>
          <dt>Duration</dt>
          <dd>{delivery.durationMs} ms</dd>
          <dt>Attempt</dt>
          <dd>
            {delivery.attempt}
            {triggerLabel(delivery) && <span class="muted"> · {triggerLabel(delivery)}</span>}
          </dd>
          <dt>Event</dt>
          <dd>
            <code>{delivery.eventType}</code> <code class="muted">{delivery.eventId}</code>
            {record && (
              <div>
                <Link href={record}>Open the record</Link>
              </div>
            )}
          </dd>
          <dt>Endpoint</dt>
          <dd>
            <code>{url}</code>
          </dd>
        </dl>
        <ErrorMessage error={retry.error} />
        <div class="actions">
          <button type="button" class="secondary" disabled={retry.busy} onClick={() => void retry.submit()}>
            Send again
          </button>
        </div>
      </section>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <section class="panel" aria-labelledby="payload-title">
        <h2 id="payload-title">Payload</h2>
        {delivery.payload ? (
          <>
            <p class="muted">The body POSTed, as this webhook's scopes read the event.</p>
            <JsonBlock value={delivery.payload} />
          </>
        ) : (
          <p class="empty">The event is no longer kept (EVENT_RETENTION_DAYS), so its body cannot be shown.</p>
        )}
      </section>
      <section class="panel" aria-labelledby="request-title">
        <h2 id="request-title">Request</h2>
        <p>
          <code>POST {url}</code>
        </p>
        <p class="muted">
          Signed with the webhook's secret (never shown): check <code>webhook-signature</code> or{' '}
          <code>x-service-signature</code> with it.
        </p>
        <Headers headers={delivery.requestHeaders} caption="Request headers" none="Not recorded for this attempt." />
      </section>
      <section class="panel" aria-labelledby="answer-title">
        <h2 id="answer-title">Answer</h2>
        {delivery.statusCode === null ? (
          <p>No answer{delivery.error ? `: ${delivery.error}` : ''}.</p>
        ) : (
          <>
            <p>
              Status <strong>{delivery.statusCode}</strong>
            </p>
            <Headers
              headers={delivery.responseHeaders}
              caption="Answer headers"
              none="Not recorded for this attempt."
            />
            <h3>Body</h3>
            {delivery.responseExcerpt ? (
              <>
                <pre class="code-block">
                  <code>{delivery.responseExcerpt}</code>
                </pre>
                <p class="hint">As stored: its first 1 KiB.</p>
              </>
            ) : (
              <p class="empty">Empty.</p>
            )}
          </>
        )}
      </section>
      <section class="panel" aria-labelledby="attempts-title">
        <h2 id="attempts-title">Attempts of this event</h2>
        <Loaded query={attempts}>
          {({ webhookDeliveries }) => <Attempts attempts={webhookDeliveries.data} current={delivery.id} />}
        </Loaded>
      </section>
    </>
  );
}

function Headers({ headers, caption, none }: { headers: Header[] | null; caption: string; none: string }) {
  if (!headers) return <p class="empty">{none}</p>;
  return (
    <table class="headers-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {headers.map((header, i) => (
          <tr key={`${header.name}-${i}`}>
            <th scope="row">
              <code>{header.name}</code>
            </th>
            <td>
              <code>{header.value}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Attempts({ attempts, current }: { attempts: Delivery[]; current: string }) {
  return (
    <div class="table-wrap">
      <table class="stack-narrow">
        <caption class="visually-hidden">Every attempt of this event to this webhook, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Why</th>
            <th scope="col">Outcome</th>
            <th scope="col" class="number">
              Duration
            </th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((attempt) => (
            <tr
              key={attempt.id}
              data-status={attempt.status}
              aria-current={attempt.id === current ? 'true' : undefined}
            >
              <td data-label="Time">
                {attempt.id === current ? (
                  <>
                    {formatDateTime(attempt.createdAt)} <span class="muted">(this one)</span>
                  </>
                ) : (
                  <Link href={deliveryPath(attempt)}>{formatDateTime(attempt.createdAt)}</Link>
                )}
              </td>
              <td data-label="Why">{triggerLabel(attempt) ?? 'First attempt'}</td>
              <td data-label="Outcome">
                <StatusBadge value={attempt.status} /> {attempt.statusCode ?? 'no answer'}
                <PendingRetry delivery={attempt} />
              </td>
              <td class="number" data-label="Duration">
                {attempt.durationMs} ms
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
