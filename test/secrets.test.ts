// Passwords and secrets are stored as scrypt hashes; keys as SHA-256.
import { describe, expect, it } from 'vitest';
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../src/auth/secrets.js';

describe('secrets', () => {
  it('verifies a password against its scrypt hash, and nothing else', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'sha1$whatever')).toBe(false);
    // A fresh salt each time: the same password never hashes the same twice.
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
  });

  it('makes tokens of the Bearer alphabet with every character in use', () => {
    const token = randomToken(20_000);
    expect(token).toMatch(/^[0-9A-Za-z]{20000}$/);
    expect(new Set(token).size).toBe(62);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
