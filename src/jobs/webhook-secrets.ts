// Webhook signing secrets: `whsec_` + base64 of 24 random bytes (the Standard
// Webhooks form, so its libraries take the secret as shown), encrypted at rest
// under the server key ring (src/auth/server-keys.ts) and bound to their webhook's
// id (src/auth/sealing.ts). Secrets written before key ids existed (`v1.iv.tag.ct`,
// directly under the master key, bound to nothing) still open, and the worker
// seals them again in the current form when it starts (webhook-secret-reseal.ts).
import { createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { SealError, Sealer, isSealed } from '../auth/sealing.js';
import { serverKeysFor, type ServerKeyRing } from '../auth/server-keys.js';

export const SECRET_PREFIX = 'whsec_';
const LEGACY_FORMAT = 'v1';

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The key bytes of a `whsec_<base64>` secret, as Standard Webhooks signs with them. */
export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** Seals and opens the signing secrets of webhooks, each bound to its webhook id. */
export class WebhookSecrets {
  private readonly sealer: Sealer;

  constructor(private readonly keys: ServerKeyRing) {
    this.sealer = new Sealer(keys, 'webhook-secret');
  }

  seal(webhookId: string, secret: string): string {
    return this.sealer.seal(secret, webhookId);
  }

  open(webhookId: string, sealed: string): string {
    return isSealed(sealed) ? this.sealer.open(sealed, webhookId) : this.openLegacy(sealed);
  }

  /** How a secret sealed in the current form under the current key begins. */
  currentPrefix(): string {
    return this.sealer.currentPrefix();
  }

  /** `v1.<iv>.<tag>.<ciphertext>`: AES-256-GCM under a master key itself, which one unrecorded. */
  private openLegacy(sealed: string): string {
    const [format, iv, tag, ciphertext] = sealed.split('.');
    if (format !== LEGACY_FORMAT || !iv || !tag || ciphertext === undefined) {
      throw new SealError('not a sealed webhook secret');
    }
    for (const { key } of this.keys.keys()) {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      try {
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        // Another key, perhaps.
      }
    }
    throw new SealError('a webhook secret of the v1 form that no configured server key opens');
  }
}

/** The webhook secrets of this configuration (see serverKeysFor). */
export async function webhookSecretsFor(
  config: Pick<Config, 'webhooks' | 'dataDir' | 'isProduction'>,
): Promise<WebhookSecrets> {
  return new WebhookSecrets(await serverKeysFor(config));
}
