// Trust gaps from the second review (issue 23): a client_credentials token acts
// for its key's creator, so a key it makes is bounded like any key that user
// makes, and a key with no creator comes only from the operator (item 1); a
// refresh refused for its scope leaves the refresh token usable, an unsupported
// grant type is unsupported_grant_type, and every failed client authentication
// is 401 with the same Basic challenge (item 7); the rotateWebhookSecret
// description says what rotation does (item 8). OAuth is driven by the client
// libraries an integrator would use (openid-client, simple-oauth2).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as oidc from 'openid-client';
import pg from 'pg';
import { ClientCredentials, ResourceOwnerPassword } from 'simple-oauth2';
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/auth/principal.js';
import type { Scope } from '../src/auth/scopes.js';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';
import {
  Browser,
  createApp,
  createKeyWithSecret,
  createUser,
  tokenRequest,
  type TestApp,
  type TestUser,
} from './support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let org: TestOrg;
let admin: TestUser;

beforeAll(async () => {
  org = await server.org();
  admin = await createUser(server, org.id);
});

/** openid-client, configured for the app from the server's metadata. */
function clientFor(app: TestApp, auth: oidc.ClientAuth = oidc.ClientSecretPost(app.clientSecret!)) {
  return oidc.discovery(new URL(server.url), app.clientId, undefined, auth, {
    algorithm: 'oauth2',
    execute: [oidc.allowInsecureRequests],
  });
}

/** The code flow through the real pages, as openid-client runs it; answers the token response. */
async function codeFlow(config: oidc.Configuration, app: TestApp, user: TestUser, scope: string) {
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: app.redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const callback = await new Browser(server.url).authorize(url.href.slice(server.url.length), user);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
}

/** The error a client library threw, as what the server answered. */
async function refusal(promise: Promise<unknown>): Promise<{ status?: number; error?: string; challenge?: string }> {
  const error = (await promise.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  )) as {
    status?: number;
    error?: string;
    response?: Response;
    cause?: unknown;
    output?: { statusCode: number };
    data?: { payload?: { error?: string }; headers?: Record<string, string> };
  };
  if (error.output) {
    return {
      status: error.output.statusCode,
      error: error.data?.payload?.error,
      challenge: error.data?.headers?.['www-authenticate'],
    };
  }
  const body = error.cause as { error?: string } | undefined;
  return {
    status: error.status ?? error.response?.status,
    error: error.error ?? body?.error,
    challenge: error.response?.headers.get('www-authenticate') ?? undefined,
  };
}

/** A key the user made (its creator), with its secret. */
async function keyOfUser(user: TestUser, scopes: Scope[]) {
  const made = await server.services.apiKeys.create(operatorPrincipal(org.id, user.id), { name: 'of a user', scopes });
  return { id: made.id, key: made.key, secret: made.secret };
}

/** A client_credentials token for the key, as simple-oauth2 gets it (JSON body). */
async function clientCredentialsToken(key: { key: string; secret: string }): Promise<string> {
  const client = new ClientCredentials({
    client: { id: key.key, secret: key.secret },
    auth: { tokenHost: server.url },
    options: { authorizationMethod: 'body', bodyFormat: 'json' },
  });
  return (await client.getToken({})).token.access_token as string;
}

async function createKeyWith(bearer: string, scopes: Scope[]) {
  return server.rest('POST', '/v1/api-keys', { key: bearer, body: { name: 'made over the API', scopes } });
}

/** Polls a request until its status is `status` (or gives up after 5 s); answers the last status. */
async function statusSoon(request: () => Promise<TestResponse>, status: number): Promise<number> {
  const until = Date.now() + 5000;
  for (;;) {
    const res = await request();
    if (res.status === status || Date.now() > until) return res.status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("item 1: a client_credentials token acts for its key's creator", () => {
  it('a key it makes names that creator, loses admin on demotion and ends with the user', async () => {
    const user = await createUser(server, org.id);
    const token = await clientCredentialsToken(await keyOfUser(user, ['admin']));
    const made = await createKeyWith(token, ['admin']);
    expect(made.status, made.text).toBe(201);
    const adminKey = await org.key(['admin']);
    const record = await server.rest('GET', `/v1/api-keys/${made.body.id}`, { key: adminKey });
    expect(record.body.createdByUserId).toBe(user.id);
    expect((await server.rest('GET', '/v1/users', { key: made.body.key })).status).toBe(200);

    await server.services.users.update(operatorPrincipal(org.id), user.id, { role: 'member', scopes: ['crm:read'] });
    expect(await statusSoon(() => server.rest('GET', '/v1/users', { key: made.body.key }), 403)).toBe(403);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: made.body.key })).status).toBe(200);

    await server.services.users.delete(operatorPrincipal(org.id), user.id);
    expect(await statusSoon(() => server.rest('GET', '/v1/crm/contacts', { key: made.body.key }), 401)).toBe(401);
  });

  it('makes no key once its creator is no longer an admin, and its Viewer is the creator', async () => {
    const user = await createUser(server, org.id);
    const key = await keyOfUser(user, ['admin']);
    const token = await clientCredentialsToken(key);
    const viewer = await server.gql('{ viewer { user { id } credentialType } }', {}, { key: token });
    expect(viewer.body.data).toEqual({ viewer: { user: { id: user.id }, credentialType: 'access_token' } });

    await server.services.users.update(operatorPrincipal(org.id), user.id, { role: 'member', scopes: ['crm:read'] });
    expect(await statusSoon(() => createKeyWith(token, ['crm:read']), 403)).toBe(403);
    const fresh = await createKeyWith(await clientCredentialsToken(key), ['crm:read']);
    expect(fresh.status, fresh.text).toBe(403);
  });
});

describe('item 1: a key with no creator comes only from the operator', () => {
  it('a key whose creator is gone without its keys revoked is refused, not unbounded', async () => {
    const user = await createUser(server, org.id);
    const key = await keyOfUser(user, ['admin']);
    // As a deletion that skipped the service would leave it: the creator set null, the key live.
    await server.prisma.user.delete({ where: { id: user.id } });
    expect((await server.rest('GET', '/v1/crm/contacts', { key: key.key })).status).toBe(401);
    const exchanged = await tokenRequest(server, {
      grant_type: 'client_credentials',
      client_id: key.key,
      client_secret: key.secret,
    });
    expect(exchanged.status, exchanged.text).toBe(401);
  });

  it("an operator's key (CLI) and its tokens make operator keys; a user's rotation makes the key the user's", async () => {
    const operatorKey = await createKeyWithSecret(server, org.id, ['admin']);
    const byKey = await createKeyWith(operatorKey.key, ['crm:read']);
    const byToken = await createKeyWith(await clientCredentialsToken(operatorKey), ['crm:read']);
    for (const made of [byKey, byToken]) {
      expect(made.status, made.text).toBe(201);
      const record = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: made.body.id } });
      expect(record).toMatchObject({ createdByUserId: null, operatorIssued: true });
    }

    // An admin who rotates the operator's key holds the new secret: the new key is the admin's.
    const user = await createUser(server, org.id);
    const userKey = await keyOfUser(user, ['admin']);
    const rotated = await server.rest('POST', `/v1/api-keys/${byKey.body.id}/rotate`, { key: userKey.key });
    expect(rotated.status, rotated.text).toBe(201);
    const record = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: rotated.body.id } });
    expect(record).toMatchObject({ createdByUserId: user.id, operatorIssued: false });
    // The CLI's rotation keeps the operator's key the operator's.
    const again = await server.services.apiKeys.rotate(operatorPrincipal(org.id), byToken.body.id);
    expect(await server.prisma.apiKey.findUniqueOrThrow({ where: { id: again.id } })).toMatchObject({
      createdByUserId: null,
      operatorIssued: true,
    });
  });

  it("the migration takes live keys without a creator for the operator's, and no revoked one", async () => {
    const dir = path.resolve('prisma/migrations');
    const name = (await readdir(dir)).find((entry) => entry.endsWith('_operator_issued_api_keys'))!;
    const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
    const update = /^UPDATE [^;]*;/m.exec(sql)![0];
    const live = await createKeyWithSecret(server, org.id, ['admin']);
    const revoked = await createKeyWithSecret(server, org.id, ['admin']);
    const user = await createUser(server, org.id);
    const ofUser = await keyOfUser(user, ['admin']);
    await server.revokeKey(revoked.id);
    const ids = [live.id, revoked.id, ofUser.id];
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      // As the keys were before the migration; rolled back, so the rest of the file sees them as made.
      await client.query('begin');
      await client.query('update "ApiKey" set "operatorIssued" = false where id = any($1)', [ids]);
      await client.query(update);
      const { rows } = await client.query<{ id: string; operatorIssued: boolean }>(
        'select id, "operatorIssued" from "ApiKey" where id = any($1)',
        [ids],
      );
      const marked = Object.fromEntries(rows.map((row) => [row.id, row.operatorIssued]));
      expect(marked).toEqual({ [live.id]: true, [revoked.id]: false, [ofUser.id]: false });
    } finally {
      await client.query('rollback');
      await client.end();
    }
  });
});

describe('item 7: a refresh refused for its scope', () => {
  it('leaves the refresh token usable: the retry without the scope succeeds and the grant lives on', async () => {
    const app = await createApp(server, org.id, { scopes: ['crm:read', 'crm:write'] });
    const config = await clientFor(app);
    const tokens = await codeFlow(config, app, admin, 'crm:read');

    const refused = await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'crm:write' }));
    expect(refused).toMatchObject({ status: 400, error: 'invalid_scope' });

    // The same refresh token, as the client retries it: not reuse, a refresh.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.scope).toBe('crm:read');
    expect((await server.rest('GET', '/v1/crm/contacts', { key: refreshed.access_token })).status).toBe(200);
    // Rotation still happened once, on the success: the old token is now spent (reuse ends the grant).
    expect((await refusal(oidc.refreshTokenGrant(config, tokens.refresh_token!))).error).toBe('invalid_grant');
    expect((await server.rest('GET', '/v1/crm/contacts', { key: refreshed.access_token })).status).toBe(401);
  });
});

describe('item 7: grant types', () => {
  it('grant_type=password is unsupported_grant_type (simple-oauth2 ResourceOwnerPassword)', async () => {
    const app = await createApp(server, org.id);
    const client = new ResourceOwnerPassword({
      client: { id: app.clientId, secret: app.clientSecret! },
      auth: { tokenHost: server.url },
      options: { authorizationMethod: 'body' },
    });
    const refused = await refusal(client.getToken({ username: admin.email, password: admin.password }));
    expect(refused).toMatchObject({ status: 400, error: 'unsupported_grant_type' });
  });

  it('every grant type the server does not offer is unsupported_grant_type, whoever asks', async () => {
    const app = await createApp(server, org.id);
    const key = await createKeyWithSecret(server, org.id, ['crm:read']);
    const others = [
      'password',
      'implicit',
      'token',
      'urn:ietf:params:oauth:grant-type:device_code',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'urn:ietf:params:oauth:grant-type:token-exchange',
      'urn:ietf:params:oauth:grant-type:saml2-bearer',
    ];
    for (const grantType of others) {
      for (const [id, secret] of [
        [app.clientId, app.clientSecret!],
        [key.key, key.secret],
      ] as const) {
        const res = await tokenRequest(server, { grant_type: grantType, client_id: id, client_secret: secret });
        expect(res.status, `${grantType}: ${res.text}`).toBe(400);
        expect(res.body.error, grantType).toBe('unsupported_grant_type');
      }
    }
  });

  it('a grant the server offers but not to this client stays unauthorized_client', async () => {
    const key = await createKeyWithSecret(server, org.id, ['crm:read']);
    const res = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: 'bprt_x',
      client_id: key.key,
      client_secret: key.secret,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });
});

describe('item 7: a failed client authentication is 401 with Basic realm="oauth" everywhere', () => {
  const CHALLENGE = 'Basic realm="oauth"';
  let app: TestApp;

  beforeAll(async () => {
    app = await createApp(server, org.id);
  });

  function expectChallenged(res: TestResponse | Awaited<ReturnType<typeof tokenRequest>>, what: string) {
    expect(res.status, `${what}: ${res.text}`).toBe(401);
    expect(res.body, what).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(res.headers.get('www-authenticate'), what).toBe(CHALLENGE);
  }

  it('a wrong secret in the body or by Basic, at /oauth/token, /oauth/revoke and /oauth/introspect', async () => {
    const wrong = 'bpcs_thisIsNotTheSecretOfTheAppAtAllReally00';
    const requests = {
      '/oauth/token': { grant_type: 'authorization_code', code: 'bpac_x', redirect_uri: app.redirectUri },
      '/oauth/revoke': { token: 'bpat_x' },
      '/oauth/introspect': { token: 'bpat_x' },
    };
    for (const [path, params] of Object.entries(requests)) {
      for (const json of [false, true]) {
        const body = await tokenRequest(
          server,
          { ...params, client_id: app.clientId, client_secret: wrong },
          {
            path,
            json,
          },
        );
        expectChallenged(body, `${path} body${json ? ' (JSON)' : ''}`);
      }
      expectChallenged(await tokenRequest(server, params, { path, basic: [app.clientId, wrong] }), `${path} Basic`);
      const unknown = await tokenRequest(
        server,
        { ...params, client_id: 'bpc_doesnotexist00000000000000000', client_secret: wrong },
        { path },
      );
      expectChallenged(unknown, `${path} unknown client`);
    }
  });

  it('a confidential app without its secret, and an API key with a wrong secret (client_credentials)', async () => {
    expectChallenged(
      await tokenRequest(server, {
        grant_type: 'authorization_code',
        code: 'bpac_x',
        redirect_uri: app.redirectUri,
        client_id: app.clientId,
        code_verifier: 'x'.repeat(43),
      }),
      'no secret',
    );
    const key = await createKeyWithSecret(server, org.id, ['crm:read']);
    expectChallenged(
      await tokenRequest(server, { grant_type: 'client_credentials', client_id: key.key, client_secret: 'bps_wrong' }),
      'client_credentials body',
    );
    expectChallenged(
      await tokenRequest(server, { grant_type: 'client_credentials' }, { basic: [key.key, 'bps_wrong'] }),
      'client_credentials Basic',
    );
  });

  it('as client libraries see it: openid-client (body and Basic) and simple-oauth2 (JSON body)', async () => {
    for (const auth of [oidc.ClientSecretPost('bpcs_wrong'), oidc.ClientSecretBasic('bpcs_wrong')]) {
      const config = await clientFor(app, auth);
      const refused = await refusal(oidc.refreshTokenGrant(config, 'bprt_x'));
      expect(refused.status).toBe(401);
      expect(refused.challenge).toBe(CHALLENGE);
      const revoked = await refusal(oidc.tokenRevocation(config, 'bpat_x'));
      expect(revoked.status).toBe(401);
      expect(revoked.challenge).toBe(CHALLENGE);
    }
    const key = await createKeyWithSecret(server, org.id, ['crm:read']);
    const cc = new ClientCredentials({
      client: { id: key.key, secret: 'bps_wrong' },
      auth: { tokenHost: server.url },
      options: { authorizationMethod: 'body', bodyFormat: 'json' },
    });
    expect(await refusal(cc.getToken({}))).toMatchObject({
      status: 401,
      error: 'invalid_client',
      challenge: CHALLENGE,
    });
  });
});

describe('item 8: rotateWebhookSecret says what rotation does', () => {
  it('GraphQL and OpenAPI: the replaced secret keeps signing for the grace period', async () => {
    const key = await org.key(['admin']);
    const res = await server.gql('{ __schema { mutationType { fields { name description } } } }', {}, { key });
    const fields = (
      res.body.data as { __schema: { mutationType: { fields: { name: string; description: string }[] } } }
    ).__schema.mutationType.fields;
    const graphql = fields.find((field) => field.name === 'rotateWebhookSecret')!.description;
    const openapi = (
      (await server.rest('GET', '/v1/openapi.json')).body as {
        paths: Record<string, { post: { description: string } }>;
      }
    ).paths['/webhooks/{id}/rotate-secret']!.post.description;
    for (const text of [graphql, openapi]) {
      expect(text).not.toMatch(/stops at once/);
      expect(text).toMatch(/replaced secret still signs/);
      expect(text).toMatch(/WEBHOOK_SECRET_ROTATION_GRACE_S/);
    }
  });
});
