// Rights that end when they should (issue 14, item 8), as an organization's
// admin and an integrator meet them over HTTP: a key is used within its
// creator's current rights; a new password or other rights sign the user out
// and end what apps hold for it; across server processes within moments.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, useServerPair, type ServerFixture, type TestResponse } from './support/fixtures.js';
import {
  authorizeUrl,
  type Browser,
  createApp,
  createUser,
  exchangeCode,
  obtainCode,
  obtainTokens,
  pkcePair,
  tokenRequest,
  type TestApp,
  type TestUser,
} from './support/oauth.js';

const ENV = { RATE_LIMIT_MAX: '100000' };
const NEW_PASSWORD = 'a brand new long password';

function expectForbidden(res: TestResponse) {
  expect(res.status, res.text).toBe(403);
  expect(res.body.error.code).toBe('FORBIDDEN');
}

function expectUnauthorized(res: TestResponse) {
  expect(res.status, res.text).toBe(401);
  expect(res.body.error.code).toBe('UNAUTHORIZED');
}

/** Polls until `done` holds (or gives up after 5 s), and answers the last result. */
async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * An API key the user made itself: the user authorizes an app for `admin`
 * and the app creates the key with the user's token, so the key names the
 * user as its creator.
 */
async function keyMadeBy(server: ServerFixture, app: TestApp, user: TestUser) {
  const tokens = await obtainTokens(server, app, user, { scope: 'admin' });
  const res = await server.rest('POST', '/v1/api-keys', {
    key: tokens.access_token,
    body: { name: 'made by a user', scopes: ['admin'] },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; key: string; secret: string };
}

function clientCredentials(server: ServerFixture, key: { key: string; secret: string }, scope?: string) {
  return tokenRequest(server, {
    grant_type: 'client_credentials',
    client_id: key.key,
    client_secret: key.secret,
    scope,
  });
}

function refresh(server: ServerFixture, app: TestApp, refreshToken: string) {
  return tokenRequest(server, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: app.clientId,
    client_secret: app.clientSecret!,
  });
}

/** What a browser sees on opening the app's authorization URL: the consent page (signed in) or the sign-in page. */
async function pageFor(browser: Browser, app: TestApp): Promise<'consent' | 'sign-in'> {
  const page = await browser.get(
    authorizeUrl({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: 'crm:read',
      state: 'state-1',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    }),
  );
  expect(page.status, page.html).toBe(200);
  if (page.html.includes('action="/oauth/sign-in"')) return 'sign-in';
  expect(page.html).toContain('Allow');
  return 'consent';
}

/** A user signed in through the app: its browser (still signed in), live tokens, and a code not yet exchanged. */
async function signedIn(server: ServerFixture, app: TestApp, user: TestUser) {
  const first = await obtainCode(server, app, user);
  const exchanged = await exchangeCode(server, app, first.code, first.verifier);
  expect(exchanged.status, exchanged.text).toBe(200);
  const pending = await obtainCode(server, app, user, { browser: first.browser });
  expect(await pageFor(first.browser, app)).toBe('consent');
  return {
    browser: first.browser,
    tokens: exchanged.body as { access_token: string; refresh_token: string },
    pending,
  };
}

type SignedIn = Awaited<ReturnType<typeof signedIn>>;

/** Everything the user's sign-in gave is ended: session, refresh grant, access token, pending code. */
async function expectSignedOut(server: ServerFixture, app: TestApp, was: SignedIn) {
  expect(await pageFor(was.browser, app)).toBe('sign-in');
  const refreshed = await refresh(server, app, was.tokens.refresh_token);
  expect(refreshed.status, refreshed.text).toBe(400);
  expect(refreshed.body.error).toBe('invalid_grant');
  expectUnauthorized(await server.rest('GET', '/v1/crm/contacts', { key: was.tokens.access_token }));
  const exchanged = await exchangeCode(server, app, was.pending.code, was.pending.verifier);
  expect(exchanged.status, exchanged.text).toBe(400);
  expect(exchanged.body.error).toBe('invalid_grant');
}

/** Nothing of the user's sign-in was ended. */
async function expectStillSignedIn(server: ServerFixture, app: TestApp, was: SignedIn) {
  expect(await pageFor(was.browser, app)).toBe('consent');
  expect((await server.rest('GET', '/v1/crm/contacts', { key: was.tokens.access_token })).status).toBe(200);
  const refreshed = await refresh(server, app, was.tokens.refresh_token);
  expect(refreshed.status, refreshed.text).toBe(200);
}

describe('in one server', () => {
  const server = useServer(ENV);
  let orgId: string;
  let admin: string;
  let app: TestApp;

  beforeAll(async () => {
    const org = await server.org();
    orgId = org.id;
    admin = await org.key(['admin']);
    app = await createApp(server, orgId, { scopes: ['admin', 'crm:read', 'crm:write'] });
  });

  const updateUser = async (id: string, body: Record<string, unknown>) => {
    const res = await server.rest('PUT', `/v1/users/${id}`, { key: admin, body });
    expect(res.status, res.text).toBe(200);
  };

  describe("an API key is used within its creator's current rights", () => {
    it('a demoted admin’s admin key gets 403 for admin calls, works within the member’s rights, and again when promoted', async () => {
      const user = await createUser(server, orgId);
      const made = await keyMadeBy(server, app, user);
      const beforeToken = await clientCredentials(server, made);
      expect(beforeToken.status, beforeToken.text).toBe(200);
      expect((await server.rest('GET', '/v1/users', { key: made.key })).status).toBe(200);

      await updateUser(user.id, { role: 'member', scopes: ['crm:read'] });

      expectForbidden(await server.rest('GET', '/v1/users', { key: made.key }));
      expect((await server.rest('GET', '/v1/crm/contacts', { key: made.key })).status).toBe(200);
      expectForbidden(await server.rest('POST', '/v1/crm/contacts', { key: made.key, body: { email: 'a@x.test' } }));
      expectForbidden(
        await server.rest('POST', '/v1/api-keys', { key: made.key, body: { name: 'wider', scopes: ['crm:read'] } }),
      );
      const gql = await server.gql('{ users { data { id } } }', undefined, { key: made.key });
      expect(gql.errors?.[0]?.extensions?.code, gql.text).toBe('FORBIDDEN');
      // A client_credentials token of the key, issued before or after, holds no more.
      expectForbidden(await server.rest('GET', '/v1/users', { key: beforeToken.body.access_token }));
      expect((await server.rest('GET', '/v1/crm/contacts', { key: beforeToken.body.access_token })).status).toBe(200);
      expect((await clientCredentials(server, made, 'admin')).body.error).toBe('invalid_scope');
      const afterToken = await clientCredentials(server, made);
      expect(afterToken.body.scope, afterToken.text).toBe('crm:read');
      // The key's record keeps the scopes it was given (what it holds again if its creator is promoted).
      expect((await server.rest('GET', `/v1/api-keys/${made.id}`, { key: admin })).body.scopes).toEqual(['admin']);

      await updateUser(user.id, { role: 'admin' });
      expect((await server.rest('GET', '/v1/users', { key: made.key })).status).toBe(200);
      expect((await server.rest('GET', '/v1/users', { key: beforeToken.body.access_token })).status).toBe(200);
    });

    it('a key an operator made (CLI, no creator) keeps its scopes', async () => {
      // `admin` itself was made so; it demoted the creator above and still manages users.
      expect((await server.rest('GET', '/v1/users', { key: admin })).status).toBe(200);
    });
  });

  describe('a new password ends the user’s sign-ins', () => {
    it('the session cookie no longer reaches the consent page, the refresh token is invalid_grant, the access token 401', async () => {
      const user = await createUser(server, orgId, { role: 'member', scopes: ['crm:read', 'crm:write'] });
      const other = await createUser(server, orgId, { role: 'member', scopes: ['crm:read'] });
      const was = await signedIn(server, app, user);
      const bystander = await signedIn(server, app, other);

      await updateUser(user.id, { password: NEW_PASSWORD });

      await expectSignedOut(server, app, was);
      await expectStillSignedIn(server, app, bystander);
      // The new password signs in again.
      const again = await obtainTokens(server, app, { ...user, password: NEW_PASSWORD });
      expect((await server.rest('GET', '/v1/crm/contacts', { key: again.access_token })).status).toBe(200);
    });
  });

  describe('other rights end the user’s sign-ins', () => {
    it.each([
      ['a role change', { role: 'admin' }, { role: 'member', scopes: ['crm:read'] }],
      ['a scope change', { role: 'member', scopes: ['crm:read', 'crm:write'] }, { scopes: ['crm:read'] }],
    ] as const)('%s ends sessions, refresh grants and access tokens', async (_, rights, change) => {
      const user = await createUser(server, orgId, rights as never);
      const was = await signedIn(server, app, user);
      await updateUser(user.id, change);
      await expectSignedOut(server, app, was);
    });

    it('a change of name or email, or the same scopes in another order, ends nothing', async () => {
      const user = await createUser(server, orgId, { role: 'member', scopes: ['crm:read', 'crm:write'] });
      const was = await signedIn(server, app, user);
      await updateUser(user.id, { name: 'Renamed', scopes: ['crm:write', 'crm:read'] });
      await expectStillSignedIn(server, app, was);
    });
  });
});

describe('across server processes', () => {
  const [first, second] = useServerPair(ENV);
  let orgId: string;
  let admin: string;
  let app: TestApp;

  beforeAll(async () => {
    const org = await first.org();
    orgId = org.id;
    admin = await org.key(['admin']);
    app = await createApp(first, orgId, { scopes: ['admin', 'crm:read', 'crm:write'] });
  });

  /**
   * The second process has the credential cached (it answered `before`); a change
   * through the first reaches it within moments (the NOTIFY), not at its cache's
   * 60-second TTL.
   */
  async function secondSees(
    request: () => Promise<TestResponse>,
    statuses: { before: number; after: number },
    change: () => Promise<TestResponse>,
  ) {
    for (let i = 0; i < 2; i++) expect((await request()).status).toBe(statuses.before);
    const res = await change();
    expect(res.status, res.text).toBeLessThan(300);
    const changedAt = Date.now();
    const seen = await poll(request, (r) => r.status === statuses.after);
    expect(seen.status, seen.text).toBe(statuses.after);
    expect(Date.now() - changedAt).toBeLessThan(2500);
  }

  it('a demotion bounds the key the user made in the other process', async () => {
    const user = await createUser(first, orgId);
    const made = await keyMadeBy(first, app, user);
    await secondSees(
      () => second.rest('GET', '/v1/users', { key: made.key }),
      { before: 200, after: 403 },
      () => first.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { role: 'member', scopes: ['crm:read'] } }),
    );
    expect((await second.rest('GET', '/v1/crm/contacts', { key: made.key })).status).toBe(200);
  });

  it("a new password ends the user's access tokens in the other process", async () => {
    const user = await createUser(first, orgId, { role: 'member', scopes: ['crm:read'] });
    const tokens = await obtainTokens(first, app, user);
    await secondSees(
      () => second.rest('GET', '/v1/crm/contacts', { key: tokens.access_token }),
      { before: 200, after: 401 },
      () => first.rest('PUT', `/v1/users/${user.id}`, { key: admin, body: { password: NEW_PASSWORD } }),
    );
  });

  it('deleting a user revokes the keys it made in the other process', async () => {
    const user = await createUser(first, orgId);
    const made = await keyMadeBy(first, app, user);
    await secondSees(
      () => second.rest('GET', '/v1/crm/contacts', { key: made.key }),
      { before: 200, after: 401 },
      () => first.rest('DELETE', `/v1/users/${user.id}`, { key: admin }),
    );
  });
});
