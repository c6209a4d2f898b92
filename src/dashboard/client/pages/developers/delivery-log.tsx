// The deliveries log of a webhook: every attempt, newest first, each opening
// its detail, with a "failed only" filter, a redelivery of one, and of every
// failed event since a time. A redelivery says so; "retry at" only while that
// retry is still to come.
import { graphql } from '../../api.js';
import { ErrorMessage, Link, Pager, StatusBadge, formatDateTime, useSubmit } from '../../ui.js';

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  trigger: 'event' | 'manual' | 'test';
  status: 'succeeded' | 'failed';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  nextAttemptAt: string | null;
  retryPending: boolean;
  redeliveryOf: string | null;
  createdAt: string;
}

/** The fields the log and the detail page read. */
export const DELIVERY_FIELDS =
  'id webhookId eventId eventType attempt trigger status statusCode durationMs error responseExcerpt nextAttemptAt retryPending redeliveryOf createdAt';

export const deliveryPath = (delivery: Pick<Delivery, 'id' | 'webhookId'>) =>
  `/developers/webhooks/${delivery.webhookId}/deliveries/${delivery.id}`;

/** Why this attempt was made, in words: none for an event's own first attempt. */
export function triggerLabel(delivery: Delivery): string | undefined {
  if (delivery.trigger === 'test') return delivery.redeliveryOf ? 'Test, sent again' : 'Test';
  if (delivery.trigger === 'manual') return 'Redelivery';
  return delivery.attempt > 1 ? `Retry ${delivery.attempt - 1}` : undefined;
}

/** "Retry at …" while the retry this attempt scheduled is still to come. */
export function PendingRetry({ delivery }: { delivery: Delivery }) {
  if (!delivery.retryPending || !delivery.nextAttemptAt) return null;
  return <div class="muted">retry at {formatDateTime(delivery.nextAttemptAt)}</div>;
}

export interface DeliveryPage {
  data: Delivery[];
  pagination: { page: number; limit: number; total: number };
}

const RETRY = `mutation Retry($webhookId: ID!, $deliveryId: ID!) { retryWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { count } }`;
const REDELIVER = `mutation Redeliver($id: ID!, $since: Int!) { redeliverWebhook(id: $id, since: $since) { count } }`;

/** A datetime-local value (the browser's time zone) for a moment. */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** What the receiver answered, else why there was no answer (timeout, connection). */
function excerpt(delivery: Delivery): string {
  const text = delivery.responseExcerpt || delivery.error || '';
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function DeliveryLog({
  webhookId,
  deliveries,
  failedOnly,
  onFailedOnly,
  onPage,
  onQueued,
}: {
  webhookId: string;
  deliveries: DeliveryPage;
  failedOnly: boolean;
  onFailedOnly: (on: boolean) => void;
  onPage: (page: number) => void;
  onQueued: (what: string, count?: number) => void;
}) {
  const retry = useSubmit(async (delivery: Delivery) => {
    await graphql(RETRY, { webhookId, deliveryId: delivery.id });
    onQueued(`The ${delivery.eventType} event is queued again.`);
  });
  const redeliver = useSubmit(async (form: HTMLFormElement) => {
    const value = new FormData(form).get('since');
    const since = Math.floor(new Date(String(value)).getTime() / 1000);
    const { redeliverWebhook } = await graphql<{ redeliverWebhook: { count: number } }>(REDELIVER, {
      id: webhookId,
      since,
    });
    const { count } = redeliverWebhook;
    if (count === 0) {
      onQueued('No failed event to send again since then (an event still being retried is left to its retries).', 0);
    } else {
      onQueued(count === 1 ? '1 failed event is queued again.' : `${count} failed events are queued again.`);
    }
  });
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <div class="toolbar">
        <div class="checks">
          <label>
            <input
              type="checkbox"
              checked={failedOnly}
              onChange={(event) => onFailedOnly(event.currentTarget.checked)}
            />
            Failed only
          </label>
        </div>
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void redeliver.submit(event.currentTarget);
          }}
        >
          <div class="field">
            <label for="field-since">Redeliver failed events since</label>
            <input
              id="field-since"
              name="since"
              type="datetime-local"
              required
              defaultValue={localInput(new Date(Date.now() - 86_400_000))}
            />
          </div>
          <button type="submit" class="secondary" disabled={redeliver.busy}>
            Redeliver failed
          </button>
        </form>
      </div>
      <ErrorMessage error={retry.error ?? redeliver.error} />
      {deliveries.data.length === 0 ? (
        <p class="empty">
          {failedOnly ? 'No failed delivery.' : 'No delivery yet. Send a test event to see one here.'}
        </p>
      ) : (
        <div class="table-wrap">
          <table class="stack-narrow">
            <caption class="visually-hidden">Delivery attempts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Result</th>
                <th scope="col" class="number">
                  Duration
                </th>
                <th scope="col" class="number">
                  Attempt
                </th>
                <th scope="col">Answer</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((delivery) => (
                <tr key={delivery.id} data-status={delivery.status}>
                  <td data-label="Time">
                    <Link href={deliveryPath(delivery)}>
                      {formatDateTime(delivery.createdAt)}
                      <span class="visually-hidden">, {delivery.eventType} delivery</span>
                    </Link>
                  </td>
                  <td data-label="Event">
                    <code>{delivery.eventType}</code>
                    {triggerLabel(delivery) && <div class="muted">{triggerLabel(delivery)}</div>}
                  </td>
                  <td data-label="Result">
                    <StatusBadge value={delivery.status} /> {delivery.statusCode ?? 'no answer'}
                    <PendingRetry delivery={delivery} />
                  </td>
                  <td class="number" data-label="Duration">
                    {delivery.durationMs} ms
                  </td>
                  <td class="number" data-label="Attempt">
                    {delivery.attempt}
                  </td>
                  <td class="excerpt" data-label="Answer">
                    <code>{excerpt(delivery)}</code>
                  </td>
                  <td>
                    <button
                      type="button"
                      class="secondary small"
                      disabled={retry.busy}
                      aria-label={`Redeliver the ${delivery.eventType} event of ${formatDateTime(delivery.createdAt)}`}
                      onClick={() => void retry.submit(delivery)}
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager {...deliveries.pagination} onPage={onPage} />
    </section>
  );
}
