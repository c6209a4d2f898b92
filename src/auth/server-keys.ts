// The server's master keys and the subkeys derived from them. One master key is
// current (WEBHOOK_SECRET_KEY, or outside production a key generated once under
// DATA_DIR); earlier ones (WEBHOOK_SECRET_PREVIOUS_KEYS) stay to read what was
// written under them. Each key has an id, written beside everything made with
// it, so the master key can be rotated. Each use of the key gets a subkey of its
// own (HKDF-SHA256 with the purpose as info): a value made for one purpose is
// worthless for another, and no code holds the master key itself.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';

export interface ServerKey {
  id: string;
  key: Buffer;
}

/** What a subkey is for; each purpose names one kind of value made with it. */
export type KeyPurpose = 'webhook-secret' | 'idempotency-answer' | 'idempotency-request';

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** A key's id when none is given: a short fingerprint that says nothing of the key. */
export function derivedKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('business-platform key id').digest('hex').slice(0, 12);
}

/**
 * `<base64 of 32 bytes>` (its id derived from the key) or `<id>:<base64>`;
 * a problem as a string when it is neither.
 */
export function parseServerKey(text: string): ServerKey | string {
  const match = /^(?:([^:]*):)?([A-Za-z0-9+/]+={0,2})$/.exec(text.trim());
  if (!match) return 'must be base64 of 32 bytes, or <id>:<base64 of 32 bytes>';
  const key = Buffer.from(match[2]!, 'base64');
  if (key.length !== 32) return 'must be base64 of 32 bytes';
  const id = match[1] ?? derivedKeyId(key);
  if (!KEY_ID.test(id)) return 'its id must be 1 to 32 letters, digits, - or _';
  return { id, key };
}

/** The current master key and the previous ones, by id; subkeys derived on first use. */
export class ServerKeyRing {
  private readonly byId = new Map<string, ServerKey>();
  private readonly subkeys = new Map<string, Buffer>();

  constructor(
    readonly current: ServerKey,
    previous: readonly ServerKey[] = [],
  ) {
    for (const key of [current, ...previous]) {
      if (key.key.length !== 32) throw new Error(`server key ${key.id} must be 32 bytes`);
      if (this.byId.has(key.id)) throw new Error(`two server keys have the id ${key.id}`);
      this.byId.set(key.id, key);
    }
  }

  /** Every key, the current one first. */
  keys(): ServerKey[] {
    return [...this.byId.values()];
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The subkey of `purpose` under the key `id` (the current key by default). */
  subkey(purpose: KeyPurpose, id = this.current.id): Buffer {
    const name = `${id}\n${purpose}`;
    let subkey = this.subkeys.get(name);
    if (!subkey) {
      const master = this.byId.get(id);
      if (!master) throw new UnknownKeyError(id);
      subkey = Buffer.from(hkdfSync('sha256', master.key, Buffer.alloc(0), `business-platform ${purpose}`, 32));
      this.subkeys.set(name, subkey);
    }
    return subkey;
  }
}

export class UnknownKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`written under the server key ${keyId}, which is not configured: list it in WEBHOOK_SECRET_PREVIOUS_KEYS`);
  }
}

export const DEVELOPMENT_KEY_FILE = 'webhook-secret.key';

const developmentKeys = new Map<string, Promise<ServerKey>>();

/**
 * The key ring of this configuration: WEBHOOK_SECRET_KEY, or (never in production:
 * config.ts refuses to start) the development key under DATA_DIR, created on first
 * use; concurrent processes agree on the first one written. Previous keys come from
 * WEBHOOK_SECRET_PREVIOUS_KEYS either way.
 */
export async function serverKeysFor(
  config: Pick<Config, 'webhooks' | 'dataDir' | 'isProduction'>,
): Promise<ServerKeyRing> {
  const { secretKey, previousSecretKeys } = config.webhooks;
  if (secretKey) return new ServerKeyRing(secretKey, previousSecretKeys);
  if (config.isProduction) throw new Error('WEBHOOK_SECRET_KEY is required in production');
  const file = path.join(config.dataDir, DEVELOPMENT_KEY_FILE);
  let key = developmentKeys.get(file);
  if (!key) {
    key = developmentKey(file);
    key.catch(() => developmentKeys.delete(file));
    developmentKeys.set(file, key);
  }
  return new ServerKeyRing(await key, previousSecretKeys);
}

async function developmentKey(file: string): Promise<ServerKey> {
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, randomBytes(32).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another process may have just created it: wait until its content is whole.
  for (let i = 0; ; i++) {
    const key = parseServerKey(await readFile(file, 'utf8'));
    if (typeof key !== 'string') return key;
    if (i >= 50) throw new Error(`${file} does not hold a base64 32-byte key`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
