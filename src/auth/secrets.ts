// Random secrets the service issues, and their hashes. Each is 40 random base62
// characters (238 bits) after its prefix: guessing is hopeless, so a fast hash
// (SHA-256) is as safe as a slow one, and checking one costs next to nothing,
// also for a caller who sends made-up ids. Passwords, which people choose, are
// hashed slowly instead (passwords.ts).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from './passwords.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random string over [0-9A-Za-z]: inside the Bearer token alphabet of RFC 6750. */
export function randomToken(length: number): string {
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: reject the top bytes so every character is equally likely.
      if (byte < 248 && out.length < length) out.push(BASE62[byte % 62]!);
    }
  }
  return out.join('');
}

/** The bare SHA-256 of a value: the lookup form of keys, codes, tokens and sessions (a unique column). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const ISSUED_HASH = /^sha256\$([0-9a-f]{64})$/;
const BARE_SHA256 = /^[0-9a-f]{64}$/;

/** The stored form of an issued secret that is checked against its row (API key and client secrets). */
export function hashIssuedSecret(value: string): string {
  return `sha256$${sha256Hex(value)}`;
}

export interface SecretCheck {
  valid: boolean;
  /** Set when the secret is valid but stored in an older form: the hash to store instead. */
  upgrade?: string;
}

/**
 * Checks a presented secret against its stored hash, in constant time. Older
 * forms still verify and ask to be upgraded: a bare SHA-256 (client secrets
 * before hashes named their algorithm) and scrypt (API key secrets before they
 * were hashed fast: slow, but reached only with a real key, and replaced at its
 * first success). Without a stored
 * hash (an unknown id) the answer is invalid after the same fast hash.
 */
export async function verifyIssuedSecret(value: string, stored: string | null | undefined): Promise<SecretCheck> {
  const presented = Buffer.from(sha256Hex(value), 'hex');
  const current = stored ? ISSUED_HASH.exec(stored)?.[1] : undefined;
  const bare = stored && BARE_SHA256.test(stored) ? stored : undefined;
  const digest = current ?? bare;
  if (digest) {
    const valid = timingSafeEqual(presented, Buffer.from(digest, 'hex'));
    return valid && bare ? { valid, upgrade: hashIssuedSecret(value) } : { valid };
  }
  if (stored?.startsWith('scrypt$') && (await verifyPassword(value, stored))) {
    return { valid: true, upgrade: hashIssuedSecret(value) };
  }
  return { valid: false };
}
