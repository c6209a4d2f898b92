// Secrets the service issues (API key and client secrets) are checked with one
// fast hash, so a made-up client id costs the server next to nothing; hashes
// stored before (scrypt, bare SHA-256) still work and are replaced at their next
// use. Passwords are hashed at OWASP's scrypt cost, and a password stored at a
// lower cost is hashed again when its user signs in.
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/auth/passwords.js';
import { hashIssuedSecret, randomToken, sha256Hex } from '../src/auth/secrets.js';
import { useServer } from './support/fixtures.js';
import {
  consentUrl,
  Browser,
  createApp,
  createKeyWithSecret,
  createUser,
  tokenRequest,
  type TestUser,
} from './support/oauth.js';

// The production default (config.test.ts checks that it is the default), not the suite's lower one.
const OWASP_N = 2 ** 17;
const server = useServer({ PASSWORD_SCRYPT_N: String(OWASP_N), RATE_LIMIT_MAX: '100000' });

/** CPU time (every thread of this process: the server runs in it) that `work` takes, in ms. */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function repeat(times: number, work: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < times; i++) await work();
}

const clientCredentials = (clientId: string, secret?: string) =>
  tokenRequest(server, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });

describe('a client id that does not exist', () => {
  it('costs the server no slow hash at /oauth/token', async () => {
    const unknownKey = async () => {
      const res = await clientCredentials(`bpk_${randomToken(40)}`, `bps_${randomToken(40)}`);
      expect(res.body.error).toBe('invalid_client');
    };
    // An unknown OAuth app: the same lookup, then one SHA-256 (before the change too).
    const unknownApp = async () => {
      const res = await clientCredentials(`bpc_${randomToken(32)}`, `bpcs_${randomToken(40)}`);
      expect(res.body.error).toBe('invalid_client');
    };
    await repeat(5, unknownKey);
    await repeat(5, unknownApp);
    // The cheapest password hash this service would ever make (PASSWORD_SCRYPT_N's floor).
    const slowHash = (await cpuMs(() => repeat(3, () => hashPassword('x', 2 ** 14)))) / 3;
    const perKey = (await cpuMs(() => repeat(20, unknownKey))) / 20;
    const perApp = (await cpuMs(() => repeat(20, unknownApp))) / 20;
    expect(perKey - perApp, `${perKey} ms against ${perApp} ms`).toBeLessThan(slowHash / 4);
  });
});

describe('issued secrets', () => {
  it('are stored as a SHA-256 that names its algorithm: API key secrets and client secrets', async () => {
    const org = await server.org();
    const { id, secret } = await createKeyWithSecret(server, org.id, ['crm:read']);
    const key = await server.prisma.apiKey.findUniqueOrThrow({ where: { id } });
    expect(key.secretHash).toBe(hashIssuedSecret(secret));
    expect(key.secretHash).toMatch(/^sha256\$[0-9a-f]{64}$/);
    const app = await createApp(server, org.id);
    const row = await server.prisma.oAuthApp.findUniqueOrThrow({ where: { id: app.id } });
    expect(row.clientSecretHash).toBe(hashIssuedSecret(app.clientSecret!));
    const rotated = await server.rest('POST', `/v1/oauth-apps/${app.id}/rotate-secret`, {
      key: await org.key(['admin']),
    });
    const after = await server.prisma.oAuthApp.findUniqueOrThrow({ where: { id: app.id } });
    expect(after.clientSecretHash).toBe(hashIssuedSecret(rotated.body.clientSecret));
  });

  it('hashed with scrypt before (API key secrets) still get a token, and are stored fast from then on', async () => {
    const org = await server.org();
    const { id, key, secret } = await createKeyWithSecret(server, org.id, ['crm:read']);
    // As this service stored key secrets before: scrypt at N=2^14.
    await server.prisma.apiKey.update({ where: { id }, data: { secretHash: await hashPassword(secret, 2 ** 14) } });
    expect((await clientCredentials(key, 'bps_wrong')).body.error).toBe('invalid_client');
    expect((await server.prisma.apiKey.findUniqueOrThrow({ where: { id } })).secretHash).toMatch(/^scrypt\$/);

    const first = await clientCredentials(key, secret);
    expect(first.status, first.text).toBe(200);
    const upgraded = await server.prisma.apiKey.findUniqueOrThrow({ where: { id } });
    expect(upgraded.secretHash).toBe(hashIssuedSecret(secret));
    expect((await clientCredentials(key, secret)).status).toBe(200);
    expect((await clientCredentials(key, 'bps_wrong')).body.error).toBe('invalid_client');
  });

  it('stored as a bare SHA-256 before (client secrets) still authenticate, and gain the name', async () => {
    const org = await server.org();
    const app = await createApp(server, org.id);
    const before = await server.prisma.oAuthApp.update({
      where: { id: app.id },
      data: { clientSecretHash: sha256Hex(app.clientSecret!) },
    });
    const introspect = (secret: string) =>
      tokenRequest(server, { token: 'bpat_unknown' }, { path: '/oauth/introspect', basic: [app.clientId, secret] });
    expect((await introspect('bpcs_wrong')).status).toBe(401);

    const res = await introspect(app.clientSecret!);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ active: false });
    const after = await server.prisma.oAuthApp.findUniqueOrThrow({ where: { id: app.id } });
    expect(after.clientSecretHash).toBe(hashIssuedSecret(app.clientSecret!));
    // Not a change of the app.
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect((await introspect(app.clientSecret!)).status).toBe(200);
  });
});

describe('a password stored at the old cost (scrypt N=2^14)', () => {
  it('signs in, and is stored at the new cost from then on (the user otherwise unchanged)', async () => {
    const org = await server.org();
    const app = await createApp(server, org.id);
    const user: TestUser = await createUser(server, org.id);
    const before = await server.prisma.user.update({
      where: { id: user.id },
      data: { passwordHash: await hashPassword(user.password, 2 ** 14) },
    });
    expect(before.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    const signIn = async () => {
      const browser = new Browser(server.url);
      const url = consentUrl(app);
      return browser.signIn(await browser.get(url), user);
    };

    expect((await signIn()).status).toBe(303);
    const after = await server.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword(user.password, after.passwordHash)).toBe(true);
    expect(after.updatedAt).toEqual(before.updatedAt);

    // It still works, and is not hashed again.
    expect((await signIn()).status).toBe(303);
    expect((await server.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(
      after.passwordHash,
    );
  });
});
