// Webhook health (admin): how many endpoints there are, which are failing
// (disabled, or their latest attempt failed) and why, and how many delivery
// attempts failed over the last 24 hours.
import { formatDateTime, Link, type Query } from '../../ui.js';
import { isFailing, useFailedLastDay, type AdminOverview, type WebhookHealth } from './admin-data.js';
import { Figure, OverviewCard } from './card.js';

export function WebhookHealthCard({ query }: { query: Query<AdminOverview> }) {
  return (
    <OverviewCard id="webhooks" title="Webhook health" query={query}>
      {({ webhooks }) => <WebhookHealthBody webhooks={webhooks.data} total={webhooks.pagination.total} />}
    </OverviewCard>
  );
}

function WebhookHealthBody({ webhooks, total }: { webhooks: WebhookHealth[]; total: number }) {
  const failing = webhooks.filter(isFailing);
  const { failed, error } = useFailedLastDay(webhooks.map((webhook) => webhook.id));
  if (!total) {
    return (
      <p class="muted">
        No webhook yet. <Link href="/developers/webhooks">Add a webhook</Link> to have events sent to your systems.
      </p>
    );
  }
  return (
    <>
      <dl class="figures">
        <Figure id="webhook-endpoints" label="Endpoints" value={total} href="/developers/webhooks" />
        <Figure id="failing-endpoints" label="Failing" value={failing.length} />
        <Figure id="failed-deliveries" label="Failed deliveries, last 24 hours" value={failed ?? (error ? '?' : '…')} />
      </dl>
      {error && <p class="error">{error}</p>}
      {failing.length > 0 && (
        <ul class="plain-list failing-list" aria-label="Failing endpoints">
          {failing.map((webhook) => (
            <li key={webhook.id}>
              <Link href={`/developers/webhooks/${webhook.id}`}>{webhook.url}</Link>
              <span class="muted"> · {why(webhook)}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function why(webhook: WebhookHealth): string {
  if (webhook.status === 'disabled') return `Disabled${webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}`;
  return `Last delivery failed, ${formatDateTime(webhook.deliveries.data[0]?.createdAt)}`;
}
