// The webhook a request names, if it is the caller's organization's (else a 404):
// where the delivery log, its stats and the dispatches start.
import type { Principal } from '../../../auth/principal.js';
import type { PrismaClient } from '../../../db/prisma.js';
import type { Webhook as WebhookRow } from '../../../generated/prisma/client.js';
import { notFound } from '../../../errors.js';
import { ID_PREFIX } from '../../../ids.js';
import { requireWellFormedId } from '../../kit/records.js';

export async function ownedWebhook(prisma: PrismaClient, principal: Principal, id: string): Promise<WebhookRow> {
  requireWellFormedId(ID_PREFIX.webhook, 'Webhook', id);
  const webhook = await prisma.webhook.findFirst({ where: { id, organizationId: principal.organizationId } });
  if (!webhook) throw notFound('Webhook');
  return webhook;
}
