// What the admin-only parts of the overview read, in one request: the users
// and API keys (the getting-started checklist, and names for the activity's
// actors) and the webhooks with their latest attempt (webhook health).
import { graphql } from '../../api.js';
import { useQuery, type Query } from '../../ui.js';
import { useEffect, useState } from 'preact/hooks';

export interface WebhookHealth {
  id: string;
  url: string;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  deliveries: { data: { status: 'succeeded' | 'failed'; createdAt: string }[] };
}

export interface AdminOverview {
  users: { data: { id: string; email: string; name: string | null }[]; pagination: { total: number } };
  apiKeys: { data: { id: string; name: string }[]; pagination: { total: number } };
  webhooks: { data: WebhookHealth[]; pagination: { total: number } };
}

const ADMIN = `query OverviewAdmin {
  users(limit: 100) { data { id email name } pagination { total } }
  apiKeys(limit: 100) { data { id name } pagination { total } }
  webhooks(limit: 100) {
    data { id url status disabledReason deliveries(limit: 1) { data { status createdAt } } }
    pagination { total }
  }
}`;

export const useAdminOverview = (): Query<AdminOverview> => useQuery<AdminOverview>(ADMIN);

/** Failing: disabled (after failures, or by hand), or its latest attempt failed. */
export const isFailing = (webhook: WebhookHealth) =>
  webhook.status === 'disabled' || webhook.deliveries.data[0]?.status === 'failed';

// Under the server's alias limit (15 per request); the chunks go in parallel.
const CHUNK = 12;

/**
 * Delivery attempts that failed over the last 24 hours across these webhooks
 * (webhookDeliveryStats, one alias per webhook); undefined while counting.
 */
export function useFailedLastDay(webhookIds: string[] | undefined): { failed?: number; error?: string } {
  const [state, setState] = useState<{ failed?: number; error?: string }>({});
  const key = webhookIds?.join(' ');
  useEffect(() => {
    if (!webhookIds) return;
    let current = true;
    const chunks: string[][] = [];
    for (let i = 0; i < webhookIds.length; i += CHUNK) chunks.push(webhookIds.slice(i, i + CHUNK));
    Promise.all(
      chunks.map((ids) => {
        const args = ids.map((_, i) => `$w${i}: ID!`).join(', ');
        const fields = ids.map((_, i) => `w${i}: webhookDeliveryStats(webhookId: $w${i}, hours: 24) { failed }`);
        const variables = Object.fromEntries(ids.map((id, i) => [`w${i}`, id]));
        return graphql<Record<string, { failed: number }[]>>(
          `query OverviewFailedDeliveries(${args}) { ${fields.join(' ')} }`,
          variables,
        );
      }),
    ).then(
      (answers) => {
        const failed = answers
          .flatMap((answer) => Object.values(answer))
          .flat()
          .reduce((sum, hour) => sum + hour.failed, 0);
        if (current) setState({ failed });
      },
      (error: unknown) => current && setState({ error: error instanceof Error ? error.message : String(error) }),
    );
    return () => void (current = false);
  }, [key]);
  return webhookIds && !webhookIds.length ? { failed: 0 } : state;
}
