// Values encrypted at rest: AES-256-GCM under a subkey of the server key ring
// (server-keys.ts), written as `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64
// parts). The key id says which master key opens it, so the master key can be
// rotated; the context (associated data, e.g. the webhook id) binds the value
// to the row it belongs to, so a ciphertext copied to another row does not open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyPurpose, ServerKeyRing } from './server-keys.js';

const FORMAT = 'v2';

export class SealError extends Error {}

export class Sealer {
  constructor(
    private readonly keys: ServerKeyRing,
    private readonly purpose: KeyPurpose,
  ) {}

  seal(plain: string, context: string): string {
    const keyId = this.keys.current.id;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.subkey(this.purpose, keyId), iv);
    cipher.setAAD(associatedData(keyId, context));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      FORMAT,
      keyId,
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      ciphertext.toString('base64'),
    ].join('.');
  }

  /** The plain text; throws SealError (or UnknownKeyError) when it cannot be opened with this context. */
  open(sealed: string, context: string): string {
    const [format, keyId, iv, tag, ciphertext, extra] = sealed.split('.');
    if (format !== FORMAT || !keyId || !iv || !tag || ciphertext === undefined || extra !== undefined) {
      throw new SealError('not a sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.keys.subkey(this.purpose, keyId), Buffer.from(iv, 'base64'));
    decipher.setAAD(associatedData(keyId, context));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new SealError(`does not open under key ${keyId} for this ${this.purpose}`);
    }
  }

  /** How every value sealed now begins: one that begins otherwise is worth sealing again. */
  currentPrefix(): string {
    return `${FORMAT}.${this.keys.current.id}.`;
  }
}

export function isSealed(value: string): boolean {
  return value.startsWith(`${FORMAT}.`);
}

/** The format and key id are bound too: a ciphertext cannot be relabelled. */
function associatedData(keyId: string, context: string): Buffer {
  return Buffer.from(`${FORMAT}.${keyId}\n${context}`, 'utf8');
}
