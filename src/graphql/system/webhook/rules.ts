// What is particular to a webhook subscription, as the kit's rules: the URL a
// deployment delivers to, the scopes its deliveries carry (held by the caller,
// reading every event type it subscribes to), enabling and disabling, and its
// signing secret (shown once, sealed at rest under the server key for this
// webhook's id; a rotation keeps the replaced one signing for a grace period).
import { hasScope, SCOPES, type Scope } from '../../../auth/scopes.js';
import { parseConfig, type Config } from '../../../config.js';
import { DomainError, invalidField } from '../../../errors.js';
import { eventScopeOf } from '../../../events/catalogue.js';
import type { EventType } from '../../../events/event.js';
import { urlProblem } from '../../../jobs/url-policy.js';
import { generateWebhookSecret, webhookSecretsFor, type WebhookSecrets } from '../../../jobs/webhook-secrets.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { Rules } from '../../kit/resource.js';
import type { SecretDeclaration } from '../../kit/secrets.js';
import { NOW } from '../../kit/store.js';
import { NewWebhook, type Webhook } from './type.js';

const DISABLED = { status: 'disabled', disabledReason: 'Disabled through the API', disabledAt: NOW };

let environment: Config | undefined;
/**
 * The configuration; tools that build services without one read the environment when
 * a webhook is first touched (a bench seeding contacts needs no webhook settings).
 */
const configOf = (rules: RuleContext) => rules.config ?? (environment ??= parseConfig(process.env));

const sealing = new WeakMap<Config, Promise<WebhookSecrets>>();
/** The server keys' sealing of webhook secrets, opened once per configuration (tried again after a failure). */
function secretsOf(config: Config): Promise<WebhookSecrets> {
  let secrets = sealing.get(config);
  if (!secrets) {
    secrets = webhookSecretsFor(config);
    sealing.set(config, secrets);
    secrets.catch(() => sealing.delete(config));
  }
  return secrets;
}

/** 400 naming `url` when the URL cannot take webhooks here (strict: https to a public address). */
async function requireDeliverableUrl(rules: RuleContext, url: string): Promise<void> {
  const problem = await urlProblem(url, { strict: !configOf(rules).localConveniences });
  if (problem) throw invalidField('url', problem);
}

/** A webhook needs the read scope of every event type it subscribes to (docs/decisions.md, "Webhooks"). */
function requireReadScopes(held: ReadonlySet<string>, events: readonly EventType[]): void {
  const missing = [...new Set(events.map(eventScopeOf))].filter((scope) => !hasScope(held, scope));
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
  held: ReadonlySet<string>,
  given: readonly string[] | null,
  events: readonly EventType[],
  current: readonly string[] = [],
): void {
  const wider = (given ?? []).filter((scope) => !hasScope(held, scope as Scope));
  if (wider.length) {
    throw new DomainError('FORBIDDEN', `A webhook cannot carry scopes the caller lacks: ${wider.join(', ')}`, 'scopes');
  }
  const scopes = new Set<string>(given ?? current);
  const unread = events.filter((type) => !hasScope(scopes, eventScopeOf(type)));
  if (unread.length) {
    const needed = [...new Set(unread.map(eventScopeOf))].join(', ');
    throw invalidField('scopes', `must include ${needed} to receive ${unread.join(', ')}`);
  }
}

export const webhookRules: Rules<Webhook> = {
  async create(values, rules) {
    const held = rules.scopes!;
    const events = values.events as EventType[];
    requireReadScopes(held, events);
    const scopes = (values.scopes as Scope[] | null) ?? SCOPES.filter((scope) => held.has(scope));
    requireDeliveryScopes(held, scopes, events);
    await requireDeliverableUrl(rules, values.url as string);
    return { scopes, ...(values.status === 'disabled' ? DISABLED : { status: 'enabled' }) };
  },

  /** `status: enabled` re-enables a disabled webhook (clearing why), `disabled` stops it. */
  async update({ before, changes, given = {} }, rules) {
    if (given.status === null)
      throw new DomainError('VALIDATION_ERROR', "'status' must be enabled or disabled", 'status');
    if (given.scopes === null) throw new DomainError('VALIDATION_ERROR', "'scopes' cannot be cleared", 'scopes');
    const held = rules.scopes!;
    const events = given.events as EventType[] | undefined;
    if (events) requireReadScopes(held, events);
    if (given.url) await requireDeliverableUrl(rules, given.url as string);
    if (given.scopes || events) {
      requireDeliveryScopes(held, (given.scopes as string[]) ?? null, events ?? before.events, before.scopes);
    }
    if (changes.status === 'enabled') {
      return { disabledReason: null, disabledAt: null, consecutiveFailures: 0 };
    }
    return changes.status === 'disabled' ? DISABLED : undefined;
  },
};

/** The signing secret (`whsec_…`), shown once, sealed for this webhook's id. */
export const signingSecret: SecretDeclaration = {
  type: NewWebhook,
  async issue(webhook, rules) {
    const secret = generateWebhookSecret();
    const sealed = (await secretsOf(configOf(rules))).seal(webhook.id as string, secret);
    return { columns: { secretEncrypted: sealed }, shown: { secret } };
  },
};

/**
 * A rotation keeps the secret it replaces signing beside the new one for
 * WEBHOOK_SECRET_ROTATION_GRACE_S (Standard Webhooks' several signatures), so
 * receivers can switch without failing; a rotation within that time ends the older
 * secret at once (only the one replaced last is kept).
 */
export async function keepReplacedSecret(_input: unknown, webhook: Webhook, rules: RuleContext) {
  const graceMs = configOf(rules).webhooks.secretRotationGraceSeconds * 1000;
  if (graceMs <= 0) return { previousSecretEncrypted: null, previousSecretExpiresAt: null };
  // Sealed for this webhook id like the new one, so it moves over as it is (the row is locked).
  const [current] = await rules.query<{ secretEncrypted: string }>(
    `select "secretEncrypted" from "Webhook" where id = $1 and "organizationId" = $2`,
    [webhook.id, rules.organizationId],
  );
  return {
    previousSecretEncrypted: current!.secretEncrypted,
    previousSecretExpiresAt: new Date(Date.now() + graceMs),
  };
}
