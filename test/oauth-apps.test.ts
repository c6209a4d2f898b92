// OAuth apps as an administrator registers them: what is the resource's own
// beyond the contract suite (redirect URI rules, the secret shown once and
// stored as a hash, secret rotation, public apps, PKCE required or not,
// narrowing the scopes narrowing or ending the tokens issued, deletion ending
// tokens), from the API, GraphQL and the operator CLI.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hashIssuedSecret, sha256Hex } from '../src/auth/secrets.js';
import { useServer, useServerPair, type ServerFixture, type TestOrg } from './support/fixtures.js';
import {
  authorizeUrl,
  Browser,
  createApp,
  createUser,
  exchangeCode,
  obtainCode,
  obtainTokens,
  tokenRequest,
  type TestUser,
} from './support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let org: TestOrg;
let admin: string;
let user: TestUser;

beforeAll(async () => {
  org = await server.org();
  admin = await org.key(['admin']);
  user = await createUser(server, org.id);
});

const newApp = (body: Record<string, unknown> = {}) =>
  server.rest('POST', '/v1/oauth-apps', {
    key: admin,
    body: { name: 'Sync', redirectUris: ['https://sync.example.test/cb'], scopes: ['crm:read'], ...body },
  });

describe('registering an app', () => {
  it('answers the client id and the secret once; GET never shows the secret', async () => {
    const res = await newApp({ description: 'Keeps contacts in sync' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^oap_/),
      name: 'Sync',
      description: 'Keeps contacts in sync',
      clientId: expect.stringMatching(/^bpc_[0-9A-Za-z]{32}$/),
      clientType: 'confidential',
      requirePkce: true,
      clientSecret: expect.stringMatching(/^bpcs_[0-9A-Za-z]{40}$/),
      redirectUris: ['https://sync.example.test/cb'],
      scopes: ['crm:read'],
    });
    const fetched = await server.rest('GET', `/v1/oauth-apps/${res.body.id}`, { key: admin });
    expect(fetched.body).not.toHaveProperty('clientSecret');
    expect(fetched.text).not.toContain(res.body.clientSecret);
    const row = await server.prisma.oAuthApp.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.clientSecretHash).toBe(hashIssuedSecret(res.body.clientSecret));
  });

  it('a public app gets no secret', async () => {
    const res = await newApp({ clientType: 'public' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ clientType: 'public', clientSecret: null, requirePkce: true });
  });

  it.each([
    ['a relative URL', '/callback'],
    ['a fragment', 'https://sync.example.test/cb#top'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,hi'],
    ['user info', 'https://user:pw@sync.example.test/cb'],
    ['no URL at all', 'not a url'],
  ])('refuses a redirect URI with %s (400 naming redirectUris)', async (_what, uri) => {
    const res = await newApp({ redirectUris: [uri] });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: expect.stringMatching(/^redirectUris/) });
  });

  it('accepts loopback http and a native app scheme', async () => {
    const res = await newApp({ redirectUris: ['http://127.0.0.1:8080/cb', 'com.example.app:/oauth/callback'] });
    expect(res.status, res.text).toBe(201);
  });

  it('refuses an empty list of redirect URIs, an unknown scope, and no scopes', async () => {
    expect((await newApp({ redirectUris: [] })).body.error.field).toBe('redirectUris');
    expect((await newApp({ scopes: ['crm:everything'] })).body.error.field).toMatch(/^scopes/);
    expect((await newApp({ scopes: [] })).body.error.field).toBe('scopes');
  });

  it('refuses a clientType other than confidential or public', async () => {
    expect((await newApp({ clientType: 'trusted' })).body.error.field).toBe('clientType');
  });

  it('lists the app with a clientId filter, and nothing for an unknown one', async () => {
    const created = await newApp();
    const found = await server.rest('GET', `/v1/oauth-apps?clientId=${created.body.clientId}&sort=-createdAt`, {
      key: admin,
    });
    expect(found.status, found.text).toBe(200);
    expect(found.body.data.map((app: { id: string }) => app.id)).toEqual([created.body.id]);
    const none = await server.rest('GET', '/v1/oauth-apps?clientId=bpc_nothing', { key: admin });
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it('needs the admin scope', async () => {
    const reader = await org.key(['crm:read']);
    const res = await server.rest('GET', '/v1/oauth-apps', { key: reader });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('admin');
  });
});

describe('changing an app', () => {
  it('a changed redirect URI list is matched exactly from then on', async () => {
    const created = await newApp({ redirectUris: ['http://127.0.0.1:9001/cb'] });
    const app = {
      id: created.body.id,
      clientId: created.body.clientId,
      clientSecret: created.body.clientSecret,
      redirectUri: 'http://127.0.0.1:9002/cb',
    };
    const put = await server.rest('PUT', `/v1/oauth-apps/${app.id}`, {
      key: admin,
      body: { redirectUris: ['http://127.0.0.1:9002/cb'] },
    });
    expect(put.status, put.text).toBe(200);
    const { code, verifier } = await obtainCode(server, app, user);
    expect((await exchangeCode(server, app, code, verifier)).status).toBe(200);
  });

  it('name, redirectUris and scopes cannot be cleared; the description can', async () => {
    const created = await newApp({ description: 'x' });
    const id = created.body.id;
    for (const field of ['name', 'redirectUris', 'scopes']) {
      const res = await server.rest('PUT', `/v1/oauth-apps/${id}`, { key: admin, body: { [field]: null } });
      expect(res.status, field).toBe(400);
      expect(res.body.error.field).toBe(field);
    }
    const cleared = await server.rest('PUT', `/v1/oauth-apps/${id}`, { key: admin, body: { description: null } });
    expect(cleared.body.description).toBeNull();
  });

  it('narrowing the scopes narrows what a refresh can obtain', async () => {
    const created = await newApp({ scopes: ['crm:read', 'crm:write'], redirectUris: ['http://127.0.0.1:9003/cb'] });
    const app = {
      id: created.body.id,
      clientId: created.body.clientId,
      clientSecret: created.body.clientSecret,
      redirectUri: 'http://127.0.0.1:9003/cb',
    };
    const tokens = await obtainTokens(server, app, user, { scope: 'crm:read crm:write' });
    await server.rest('PUT', `/v1/oauth-apps/${app.id}`, { key: admin, body: { scopes: ['crm:read'] } });
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.scope).toBe('crm:read');
  });
});

describe('narrowing the scopes ends or narrows the tokens already issued', () => {
  const createContact = (s: ServerFixture, token: string, email: string) =>
    s.rest('POST', '/v1/crm/contacts', { key: token, body: { email } });
  const asApp = (created: { body: { id: string; clientId: string; clientSecret: string } }, redirectUri: string) => ({
    id: created.body.id,
    clientId: created.body.clientId,
    clientSecret: created.body.clientSecret,
    redirectUri,
  });

  it('a live token keeps only the scopes left, at once; one left with none ends', async () => {
    const app = asApp(
      await newApp({ scopes: ['crm:read', 'crm:write'], redirectUris: ['http://127.0.0.1:9010/cb'] }),
      'http://127.0.0.1:9010/cb',
    );
    const both = await obtainTokens(server, app, user, { scope: 'crm:read crm:write' });
    const writeOnly = await obtainTokens(server, app, user, { scope: 'crm:write' });
    // Both tokens are in use (and so in the credential cache) before the change.
    expect((await createContact(server, both.access_token, 'narrow-1@example.test')).status).toBe(201);
    expect((await createContact(server, writeOnly.access_token, 'narrow-2@example.test')).status).toBe(201);

    const put = await server.rest('PUT', `/v1/oauth-apps/${app.id}`, { key: admin, body: { scopes: ['crm:read'] } });
    expect(put.status, put.text).toBe(200);

    expect((await server.rest('GET', '/v1/crm/contacts', { key: both.access_token })).status).toBe(200);
    const write = await createContact(server, both.access_token, 'narrow-3@example.test');
    expect(write.status).toBe(403);
    const introspected = await tokenRequest(
      server,
      { token: both.access_token },
      { path: '/oauth/introspect', basic: [app.clientId, app.clientSecret] },
    );
    expect(introspected.body).toMatchObject({ active: true, scope: 'crm:read' });
    const refresh = await server.prisma.oAuthRefreshToken.findUniqueOrThrow({
      where: { tokenHash: sha256Hex(both.refresh_token) },
    });
    expect(refresh.scopes).toEqual(['crm:read']);

    const ended = await server.rest('GET', '/v1/crm/contacts', { key: writeOnly.access_token });
    expect(ended.status).toBe(401);
    expect(ended.body.error.message).toContain('revoked');
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: writeOnly.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(refreshed.body.error).toBe('invalid_grant');

    // Widening the app again gives no token back what it lost.
    await server.rest('PUT', `/v1/oauth-apps/${app.id}`, { key: admin, body: { scopes: ['crm:read', 'crm:write'] } });
    expect((await createContact(server, both.access_token, 'narrow-4@example.test')).status).toBe(403);
  });

  describe('across server processes', () => {
    const [a, b] = useServerPair({ RATE_LIMIT_MAX: '100000' });

    it('a token cached by another process loses the scope at once there too', async () => {
      const o = await a.org();
      const key = await o.key(['admin']);
      const someone = await createUser(a, o.id);
      const app = await createApp(a, o.id, { scopes: ['crm:read', 'crm:write'] });
      const tokens = await obtainTokens(a, app, someone, { scope: 'crm:read crm:write' });
      expect((await createContact(b, tokens.access_token, 'pair-1@example.test')).status).toBe(201); // cached in b
      const put = await a.rest('PUT', `/v1/oauth-apps/${app.id}`, { key, body: { scopes: ['crm:read'] } });
      expect(put.status, put.text).toBe(200);
      const deadline = Date.now() + 2000;
      let status = 201;
      for (let n = 2; Date.now() < deadline && status === 201; n++) {
        status = (await createContact(b, tokens.access_token, `pair-${n}@example.test`)).status;
        if (status === 201) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(status).toBe(403);
      expect((await b.rest('GET', '/v1/crm/contacts', { key: tokens.access_token })).status).toBe(200);
    });
  });
});

describe('requiring PKCE', () => {
  const authorizeWithoutPkce = (app: { clientId: string }, redirectUri: string) =>
    new Browser(server.url).get(
      authorizeUrl({ client_id: app.clientId, redirect_uri: redirectUri, response_type: 'code' }),
    );

  it('a confidential app may turn it off, and on again; requests without PKCE follow', async () => {
    const created = await newApp({ requirePkce: false, redirectUris: ['http://127.0.0.1:9008/cb'] });
    expect(created.status, created.text).toBe(201);
    expect(created.body.requirePkce).toBe(false);
    const lenient = await authorizeWithoutPkce(created.body, 'http://127.0.0.1:9008/cb');
    expect(lenient.status).toBe(200);
    expect(lenient.html).toContain('action="/oauth/sign-in"');

    const on = await server.rest('PUT', `/v1/oauth-apps/${created.body.id}`, {
      key: admin,
      body: { requirePkce: true },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body.requirePkce).toBe(true);
    const strict = await authorizeWithoutPkce(created.body, 'http://127.0.0.1:9008/cb');
    expect(strict.status).toBe(302);
    expect(new URL(strict.location!).searchParams.get('error')).toBe('invalid_request');
    const read = await server.rest('GET', `/v1/oauth-apps/${created.body.id}`, { key: admin });
    expect(read.body.requirePkce).toBe(true);
  });

  it('a public app cannot turn it off (400 naming requirePkce), on create or update', async () => {
    const refused = await newApp({ clientType: 'public', requirePkce: false });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'requirePkce' });
    const created = await newApp({ clientType: 'public' });
    const put = await server.rest('PUT', `/v1/oauth-apps/${created.body.id}`, {
      key: admin,
      body: { requirePkce: false },
    });
    expect(put.status, put.text).toBe(400);
    expect(put.body.error.field).toBe('requirePkce');
  });

  it('takes only true or false, and cannot be cleared', async () => {
    const wrong = await newApp({ requirePkce: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ field: 'requirePkce', message: expect.stringContaining('true or false') });
    const created = await newApp();
    const cleared = await server.rest('PUT', `/v1/oauth-apps/${created.body.id}`, {
      key: admin,
      body: { requirePkce: null },
    });
    expect(cleared.status).toBe(400);
    expect(cleared.body.error.field).toBe('requirePkce');
  });

  it('is in GraphQL and in the OpenAPI document', async () => {
    const created = await server.gql(
      `mutation { createOauthApp(input: {name: "G", redirectUris: ["https://g.example.test/cb"], scopes: [crm_read], requirePkce: false}) {
        id requirePkce } }`,
      {},
      { key: admin },
    );
    expect(created.errors, created.text).toBeUndefined();
    expect(created.data.createOauthApp.requirePkce).toBe(false);
    const doc = await server.rest('GET', '/v1/openapi.json');
    expect(doc.body.components.schemas.OauthApp.properties.requirePkce).toMatchObject({ type: 'boolean' });
    expect(doc.body.components.schemas.OauthApp.required).toContain('requirePkce');
  });
});

describe('rotating the secret', () => {
  it('answers a new secret once; the old one stops at once', async () => {
    const created = await newApp({ redirectUris: ['http://127.0.0.1:9004/cb'] });
    const rotated = await server.rest('POST', `/v1/oauth-apps/${created.body.id}/rotate-secret`, { key: admin });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.clientSecret).toMatch(/^bpcs_/);
    expect(rotated.body.clientSecret).not.toBe(created.body.clientSecret);
    expect(rotated.body.clientId).toBe(created.body.clientId);
    const app = { ...created.body, redirectUri: 'http://127.0.0.1:9004/cb' };
    const { code, verifier } = await obtainCode(server, app, user);
    const old = await exchangeCode(server, app, code, verifier);
    expect(old.body.error).toBe('invalid_client');
    const fresh = await exchangeCode(server, { ...app, clientSecret: rotated.body.clientSecret }, code, verifier);
    expect(fresh.status, fresh.text).toBe(200);
  });

  it('a public app has no secret to rotate (409)', async () => {
    const created = await newApp({ clientType: 'public' });
    const res = await server.rest('POST', `/v1/oauth-apps/${created.body.id}/rotate-secret`, { key: admin });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });
});

describe('deleting an app', () => {
  it('ends every token issued to it at once', async () => {
    const created = await newApp({ redirectUris: ['http://127.0.0.1:9005/cb'] });
    const app = { ...created.body, redirectUri: 'http://127.0.0.1:9005/cb' };
    const tokens = await obtainTokens(server, app, user);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: tokens.access_token })).status).toBe(200);
    expect((await server.rest('DELETE', `/v1/oauth-apps/${app.id}`, { key: admin })).status).toBe(204);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: tokens.access_token })).status).toBe(401);
  });
});

describe('GraphQL', () => {
  it('creates and lists apps with the same shapes', async () => {
    const created = await server.gql(
      `mutation { createOauthApp(input: {name: "From GraphQL", redirectUris: ["https://g.example.test/cb"], scopes: [crm_read]}) {
        id clientId clientSecret clientType } }`,
      {},
      { key: admin },
    );
    expect(created.errors, created.text).toBeUndefined();
    expect(created.data.createOauthApp.clientSecret).toMatch(/^bpcs_/);
    const listed = await server.gql('{ oauthApps(limit: 100) { data { id clientId } } }', {}, { key: admin });
    expect(listed.data.oauthApps.data).toContainEqual({
      id: created.data.createOauthApp.id,
      clientId: created.data.createOauthApp.clientId,
    });
  });
});

describe('the operator CLI', () => {
  vi.setConfig({ testTimeout: 90_000 });
  const ROOT = path.resolve(import.meta.dirname, '..');
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: server.databaseUrl };
      delete env.LOG_LEVEL;
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  it('oauth-client create --json prints {id, clientId, clientSecret}, and the app works', async () => {
    const result = await cli([
      'oauth-client',
      'create',
      '--org',
      org.id,
      '--name',
      'CLI App',
      '--description',
      'Made by the operator',
      '--redirect-uri',
      'http://127.0.0.1:9006/cb',
      '--redirect-uri',
      'https://cli.example.test/cb',
      '--scopes',
      'crm:read crm:write',
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual({
      id: expect.stringMatching(/^oap_/),
      clientId: expect.stringMatching(/^bpc_/),
      clientSecret: expect.stringMatching(/^bpcs_/),
    });
    const stored = await server.rest('GET', `/v1/oauth-apps/${printed.id}`, { key: admin });
    expect(stored.body).toMatchObject({
      description: 'Made by the operator',
      redirectUris: ['http://127.0.0.1:9006/cb', 'https://cli.example.test/cb'],
      scopes: ['crm:read', 'crm:write'],
    });
    const tokens = await obtainTokens(server, { ...printed, redirectUri: 'http://127.0.0.1:9006/cb' }, user);
    expect(tokens.scope).toBe('crm:read');
  });

  it('--public prints no secret; a bad redirect URI is refused naming --redirect-uri (exit 2)', async () => {
    const common = ['oauth-client', 'create', '--org', org.id, '--name', 'P', '--scopes', 'crm:read', '--json'];
    const pub = await cli([...common, '--redirect-uri', 'http://127.0.0.1:9007/cb', '--public']);
    expect(pub.code).toBe(0);
    expect(JSON.parse(pub.stdout).clientSecret).toBeNull();
    const bad = await cli([...common, '--redirect-uri', 'https://x.example.test/cb#frag']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(JSON.parse(bad.stderr).error).toMatchObject({ code: 'VALIDATION_ERROR', field: '--redirect-uri' });
    const none = await cli(common);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stderr).error.field).toBe('--redirect-uri');
  });
});
