// Webhook signing secrets: `whsec_` + base64 of 24 random bytes (the Standard
// Webhooks form, so its libraries take the secret as shown), encrypted at rest
// with AES-256-GCM under WEBHOOK_SECRET_KEY. Without that setting (never in
// production: config.ts refuses to start) a development key is generated once
// under DATA_DIR and reused, so a restart can still sign with the old secrets.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';

export const SECRET_PREFIX = 'whsec_';
const FORMAT = 'v1';

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The key bytes of a `whsec_<base64>` secret, as Standard Webhooks signs with them. */
export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** Encrypts and decrypts secrets with one AES-256-GCM key. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the webhook secret key must be 32 bytes');
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, each base64. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [FORMAT, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(
      '.',
    );
  }

  open(sealed: string): string {
    const [format, iv, tag, ciphertext] = sealed.split('.');
    if (format !== FORMAT || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }
}

export const DEVELOPMENT_KEY_FILE = 'webhook-secret.key';

const boxes = new Map<string, Promise<SecretBox>>();

/**
 * The box for this configuration: WEBHOOK_SECRET_KEY, or the development key under
 * DATA_DIR (created on first use; concurrent processes agree on the first one written).
 */
export function secretBoxFor(config: Pick<Config, 'webhooks' | 'dataDir' | 'isProduction'>): Promise<SecretBox> {
  if (config.webhooks.secretKey) return Promise.resolve(new SecretBox(config.webhooks.secretKey));
  if (config.isProduction) return Promise.reject(new Error('WEBHOOK_SECRET_KEY is required in production'));
  const file = path.join(config.dataDir, DEVELOPMENT_KEY_FILE);
  let box = boxes.get(file);
  if (!box) {
    box = developmentKey(file).then((key) => new SecretBox(key));
    box.catch(() => boxes.delete(file));
    boxes.set(file, box);
  }
  return box;
}

async function developmentKey(file: string): Promise<Buffer> {
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, randomBytes(32).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another process may have just created it: wait until its content is whole.
  for (let i = 0; ; i++) {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length === 32) return key;
    if (i >= 50) throw new Error(`${file} does not hold a base64 32-byte key`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
