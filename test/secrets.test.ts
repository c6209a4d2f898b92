// Passwords are stored as scrypt hashes at OWASP's cost; issued secrets (random,
// 238 bits) as SHA-256 that names itself; keys as bare SHA-256 for lookups.
import { scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from '../src/auth/passwords.js';
import { hashIssuedSecret, randomToken, sha256Hex, verifyIssuedSecret } from '../src/auth/secrets.js';

/** A password hash as this service made them before the cost went up (N=2^14). */
async function oldCostHash(password: string): Promise<string> {
  const salt = Buffer.from('0123456789abcdef');
  const hash = (await promisify(scrypt)(password, salt, 32)) as Buffer; // node's default N is 2^14
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

describe('passwords', () => {
  it("are hashed at OWASP's scrypt cost by default (N=2^17, r=8, p=1), and verify against nothing else", async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'sha1$whatever')).toBe(false);
    // A fresh salt each time: the same password never hashes the same twice.
    expect(await hashPassword('correct horse battery', 16384)).not.toBe(
      await hashPassword('correct horse battery', 16384),
    );
    expect(needsRehash(hash)).toBe(false);
  });

  it('made at the old cost still verify, and ask to be hashed again; a stronger one does not', async () => {
    const old = await oldCostHash('correct horse battery');
    expect(await verifyPassword('correct horse battery', old)).toBe(true);
    expect(await verifyPassword('wrong horse battery', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(old, 16384)).toBe(false);
    // A lowered setting (tests) never asks to weaken a stored hash.
    expect(needsRehash(old.replace('$16384$', '$131072$'), 16384)).toBe(false);
  });

  it('are refused, not computed, when a stored hash asks for absurd parameters', async () => {
    const old = await oldCostHash('pw');
    for (const broken of [
      old.replace('$16384$', '$1073741824$'),
      old.replace('$16384$', '$1000$'),
      'scrypt$16384$8$1$',
    ]) {
      expect(await verifyPassword('pw', broken)).toBe(false);
      expect(needsRehash(broken)).toBe(false);
    }
  });
});

describe('issued secrets', () => {
  it('are stored as a SHA-256 that names its algorithm, and verify against nothing else', async () => {
    const secret = `bps_${randomToken(40)}`;
    const stored = hashIssuedSecret(secret);
    expect(stored).toBe(`sha256$${sha256Hex(secret)}`);
    expect(await verifyIssuedSecret(secret, stored)).toEqual({ valid: true });
    expect(await verifyIssuedSecret(`${secret}x`, stored)).toEqual({ valid: false });
    expect(await verifyIssuedSecret(secret, undefined)).toEqual({ valid: false });
    expect(await verifyIssuedSecret(secret, null)).toEqual({ valid: false });
    expect(await verifyIssuedSecret(secret, 'sha256$00')).toEqual({ valid: false });
  });

  it('stored in an older form (bare SHA-256, scrypt) still verify and come with their upgrade', async () => {
    const secret = `bps_${randomToken(40)}`;
    const upgrade = hashIssuedSecret(secret);
    expect(await verifyIssuedSecret(secret, sha256Hex(secret))).toEqual({ valid: true, upgrade });
    expect(await verifyIssuedSecret('bps_wrong', sha256Hex(secret))).toEqual({ valid: false });
    const scrypted = await oldCostHash(secret);
    expect(await verifyIssuedSecret(secret, scrypted)).toEqual({ valid: true, upgrade });
    expect(await verifyIssuedSecret('bps_wrong', scrypted)).toEqual({ valid: false });
  });
});

describe('random tokens', () => {
  it('use the Bearer alphabet with every character in use', () => {
    const token = randomToken(20_000);
    expect(token).toMatch(/^[0-9A-Za-z]{20000}$/);
    expect(new Set(token).size).toBe(62);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
