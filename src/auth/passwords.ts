// Passwords: the one secret a person chooses, so the one hashed slowly. scrypt
// from node:crypto at OWASP's cost (Password Storage Cheat Sheet: N=2^17, r=8,
// p=1, which takes 128 MiB and about 0.4 s of one core per hash). A hash names
// its parameters (scrypt$N$r$p$salt$hash), so hashes made at an older, lower
// cost still verify, and sign-in replaces them (needsRehash).
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import pLimit from 'p-limit';

/** OWASP's N for scrypt; PASSWORD_SCRYPT_N (src/config.ts) may lower it, for tests. */
export const PASSWORD_SCRYPT_N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** Bounds of a stored hash's parameters: a damaged row must not ask for gigabytes. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

const scryptAsync = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// Hashes run on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says
// otherwise), which also serves DNS lookups (webhook deliveries) and file access.
// Two at a time leave the other threads to those, and hold memory to 2 x 128 MiB.
const slowHashes = pLimit(2);

interface ScryptHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function scrypt(password: string, salt: Buffer, keylen: number, { N, r, p }: { N: number; r: number; p: number }) {
  // scrypt needs 128 * N * r bytes and a little more (128 * r * p, and node's own):
  // twice the first is room enough for both.
  const maxmem = 2 * 128 * N * r;
  return slowHashes(() => scryptAsync(password, salt, keylen, { N, r, p, maxmem }));
}

export async function hashPassword(password: string, N: number = PASSWORD_SCRYPT_N): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const actual = await scrypt(password, parsed.salt, parsed.hash.length, parsed);
  return timingSafeEqual(actual, parsed.hash);
}

/**
 * Whether a hash was made at a lower cost than `N` (or than r=8, p=1): verified
 * passwords with such a hash are hashed again. A stronger one is kept, so a
 * lowered setting never weakens stored hashes.
 */
export function needsRehash(stored: string, N: number = PASSWORD_SCRYPT_N): boolean {
  const parsed = parseHash(stored);
  return parsed !== undefined && (parsed.N < N || parsed.r < R || parsed.p < P || parsed.hash.length < KEY_LENGTH);
}

function parseHash(stored: string): ScryptHash | undefined {
  const [kind, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash || rest.length) return undefined;
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || !isIn(R, 1, MAX_R) || !isIn(P, 1, MAX_P)) return undefined;
  const parsed = { N, r: R, p: P, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
  return parsed.hash.length >= 16 ? parsed : undefined;
}

const isIn = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;
