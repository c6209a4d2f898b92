// Webhook subscriptions: created with a signing secret shown once (and encrypted
// at rest), listed, changed, disabled and enabled, deleted, their secret rotated,
// always within the caller's organization. Deliveries themselves are the worker's
// (src/jobs/deliver-webhook.ts); the deliveries log is delivery-log.ts, its hourly
// counts delivery-stats.ts, the deliveries asked for (test, retry, redelivery) dispatch.ts.
import { type Principal } from '../../../auth/principal.js';
import { hasScope, SCOPES, type Scope } from '../../../auth/scopes.js';
import { parseConfig, type Config } from '../../../config.js';
import { DomainError, invalidField } from '../../../errors.js';
import type { Webhook as WebhookRow } from '../../../generated/prisma/client.js';
import { ID_PREFIX, newId } from '../../../ids.js';
import { eventScopeOf } from '../../../events/catalogue.js';
import type { EventType } from '../../../events/event.js';
import { emitEventBy } from '../../../events/emit.js';
import { urlProblem } from '../../../jobs/url-policy.js';
import { generateWebhookSecret, webhookSecretsFor, type WebhookSecrets } from '../../../jobs/webhook-secrets.js';
import { parseInput } from '../../../validation.js';
import { toPublic } from '../../kit/fields.js';
import { refuseChangedFixed, type FixedFields } from '../../kit/fixed-fields.js';
import { listPage } from '../../kit/list-query.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import { changedAttributes, changedColumns, findOwned, lockOwned, requireWellFormedId } from '../../kit/records.js';
import { webhookInput, webhookList } from './input.js';
import { NewWebhook, Webhook } from './type.js';

const LABEL = 'Webhook';

export class WebhookService {
  private configured?: Pick<Config, 'isProduction' | 'localConveniences' | 'webhooks' | 'dataDir'>;
  private sealing?: Promise<WebhookSecrets>;

  constructor(private readonly db: ServiceDependencies) {}

  /**
   * The service's configuration. Tools that build services without one read it from
   * the environment, when a webhook is first touched: one that never touches a
   * webhook (a bench seeding contacts) needs no webhook settings.
   */
  private get config(): Pick<Config, 'isProduction' | 'localConveniences' | 'webhooks' | 'dataDir'> {
    this.configured ??= this.db.config ?? parseConfig(process.env);
    return this.configured;
  }

  private secrets(): Promise<WebhookSecrets> {
    if (!this.sealing) {
      this.sealing = webhookSecretsFor(this.config);
      this.sealing.catch(() => (this.sealing = undefined)); // tried again next time
    }
    return this.sealing;
  }

  list(principal: Principal, args: unknown): Promise<Page<Webhook>> {
    return listPage(this.db.pool, { table: 'Webhook', type: Webhook, list: webhookList }, principal, args);
  }

  async get(principal: Principal, id: string): Promise<Webhook> {
    return toPublic(Webhook, await this.find(principal, id));
  }

  async create(principal: Principal, input: unknown): Promise<NewWebhook> {
    const data = parseInput(webhookInput.create, input);
    requireReadScopes(principal, data.events);
    const scopes = data.scopes ?? SCOPES.filter((scope) => principal.scopes.has(scope));
    requireDeliveryScopes(principal, scopes, data.events);
    await this.requireDeliverableUrl(data.url);
    const secret = generateWebhookSecret();
    const disabled = data.status === 'disabled';
    const id = newId('webhook');
    const { organizationId } = principal;
    const sealed = (await this.secrets()).seal(id, secret);
    return this.db.prisma.$transaction(async (tx) => {
      const row = await tx.webhook.create({
        data: {
          id,
          organizationId,
          url: data.url,
          events: data.events,
          scopes,
          description: data.description ?? null,
          secretEncrypted: sealed,
          status: disabled ? 'disabled' : 'enabled',
          ...(disabled && { disabledReason: 'Disabled through the API', disabledAt: new Date() }),
        },
      });
      const object = toPublic(Webhook, row);
      await emitEventBy(tx, principal, { type: 'webhook.created', object });
      return { ...toPublic(NewWebhook, { ...row, secret }), secret };
    });
  }

  /** Partial; `status: enabled` re-enables a disabled webhook (clearing why), `disabled` stops it. */
  /** `fixed`: the read-only fields of a REST body, which must hold the webhook's own values (kit/fixed-fields.ts). */
  async update(principal: Principal, id: string, input: unknown, fixed?: FixedFields): Promise<Webhook> {
    requireWellFormedId(ID_PREFIX.webhook, LABEL, id);
    const data = parseInput(webhookInput.update, input);
    if (data.status === null)
      throw new DomainError('VALIDATION_ERROR', "'status' must be enabled or disabled", 'status');
    if (data.scopes === null) throw new DomainError('VALIDATION_ERROR', "'scopes' cannot be cleared", 'scopes');
    if (data.events) requireReadScopes(principal, data.events);
    if (data.url) await this.requireDeliverableUrl(data.url);
    return this.db.prisma.$transaction(async (tx) => {
      const row = await lockOwned<WebhookRow>(tx, 'Webhook', LABEL, principal.organizationId, id);
      refuseChangedFixed(toPublic(Webhook, row), fixed, Webhook);
      if (data.scopes || data.events) {
        requireDeliveryScopes(principal, data.scopes ?? null, data.events ?? (row.events as EventType[]), row.scopes);
      }
      const changes: Record<string, unknown> = changedColumns(row, {
        url: data.url,
        events: data.events,
        scopes: data.scopes,
        description: data.description,
      });
      if (data.status === 'enabled' && row.status !== 'enabled') {
        Object.assign(changes, { status: 'enabled', disabledReason: null, disabledAt: null, consecutiveFailures: 0 });
      } else if (data.status === 'disabled' && row.status !== 'disabled') {
        Object.assign(changes, {
          status: 'disabled',
          disabledReason: 'Disabled through the API',
          disabledAt: new Date(),
        });
      }
      const before = toPublic(Webhook, row);
      if (Object.keys(changes).length === 0) return before;
      const object = toPublic(Webhook, await tx.webhook.update({ where: { id }, data: changes }));
      await emitEventBy(tx, principal, {
        type: 'webhook.updated',
        object,
        previousAttributes: changedAttributes(before, object),
      });
      return object;
    });
  }

  /** Deletes it with its deliveries log; queued deliveries to it are dropped by the worker. */
  async delete(principal: Principal, id: string): Promise<boolean> {
    requireWellFormedId(ID_PREFIX.webhook, LABEL, id);
    return this.db.prisma.$transaction(async (tx) => {
      const row = await lockOwned<WebhookRow>(tx, 'Webhook', LABEL, principal.organizationId, id);
      await tx.webhook.delete({ where: { id } });
      const object = toPublic(Webhook, row);
      await emitEventBy(tx, principal, { type: 'webhook.deleted', object });
      return true;
    });
  }

  /**
   * A new signing secret for every delivery from now on. The secret it replaces still
   * signs beside it for WEBHOOK_SECRET_ROTATION_GRACE_S (Standard Webhooks' several
   * signatures), so receivers can switch without failing; a rotation within that time
   * ends the older secret at once (only the one replaced last is kept).
   */
  async rotateSecret(principal: Principal, id: string): Promise<NewWebhook> {
    requireWellFormedId(ID_PREFIX.webhook, LABEL, id);
    const secret = generateWebhookSecret();
    const sealed = (await this.secrets()).seal(id, secret);
    const graceMs = this.config.webhooks.secretRotationGraceSeconds * 1000;
    return this.db.prisma.$transaction(async (tx) => {
      const current = await lockOwned<WebhookRow>(tx, 'Webhook', LABEL, principal.organizationId, id);
      const row = await tx.webhook.update({
        where: { id },
        data: {
          secretEncrypted: sealed,
          // Sealed for this webhook id like the new one, so it moves over as it is.
          previousSecretEncrypted: graceMs > 0 ? current.secretEncrypted : null,
          previousSecretExpiresAt: graceMs > 0 ? new Date(Date.now() + graceMs) : null,
        },
      });
      const object = toPublic(Webhook, row);
      await emitEventBy(tx, principal, {
        type: 'webhook.secret_rotated',
        object,
        previousAttributes: changedAttributes(toPublic(Webhook, current), object),
      });
      return { ...toPublic(NewWebhook, { ...row, secret }), secret };
    });
  }

  private find(principal: Principal, id: string): Promise<WebhookRow> {
    return findOwned(ID_PREFIX.webhook, LABEL, id, (id) =>
      this.db.prisma.webhook.findFirst({ where: { id, organizationId: principal.organizationId } }),
    );
  }

  /** 400 naming `url` when the URL cannot take webhooks here (strict: https to a public address). */
  private async requireDeliverableUrl(url: string): Promise<void> {
    const problem = await urlProblem(url, { strict: !this.config.localConveniences });
    if (problem) throw invalidField('url', problem);
  }
}

/** A webhook needs the read scope of every event type it subscribes to (docs/decisions.md, "Webhooks"). */
function requireReadScopes(principal: Principal, events: EventType[]): void {
  const missing = [...new Set(events.map(eventScopeOf))].filter((scope) => !hasScope(principal.scopes, scope));
  if (missing.length) {
    throw new DomainError('FORBIDDEN', `Subscribing to these events needs the scope ${missing.join(', ')}`, 'events');
  }
}

/**
 * What a webhook delivers with (docs/decisions.md, "Salaries are private"): scopes
 * the caller holds (`given`; null: unchanged, the `current` ones), that read every
 * event type it subscribes to.
 */
function requireDeliveryScopes(
  principal: Principal,
  given: readonly Scope[] | null,
  events: readonly EventType[],
  current: readonly string[] = [],
): void {
  if (given) {
    const wider = given.filter((scope) => !hasScope(principal.scopes, scope));
    if (wider.length) {
      throw new DomainError(
        'FORBIDDEN',
        `A webhook cannot carry scopes the caller lacks: ${wider.join(', ')}`,
        'scopes',
      );
    }
  }
  const scopes = new Set<string>(given ?? current);
  const unread = events.filter((type) => !hasScope(scopes, eventScopeOf(type)));
  if (unread.length) {
    const needed = [...new Set(unread.map(eventScopeOf))].join(', ');
    throw invalidField('scopes', `must include ${needed} to receive ${unread.join(', ')}`);
  }
}
