// What the authorization service refuses, each case on its own: bad client
// credentials, unknown clients and redirect URIs (an error page, never a
// redirect), PKCE faults, expired and reused codes, reused refresh tokens,
// revoked and expired access tokens, scope escalation, cross-organization
// access, CSRF, and sign-in guessing. Every refusal is in RFC 6749's form.
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/auth/secrets.js';
import { useServer, useServerPair, type ServerFixture, type TestOrg } from './support/fixtures.js';
import {
  authorizeUrl,
  Browser,
  createApp,
  createUser,
  exchangeCode,
  formOf,
  obtainCode,
  obtainTokens,
  pkcePair,
  tokenRequest,
  type TestApp,
  type TestUser,
} from './support/oauth.js';

const server = useServer({
  RATE_LIMIT_MAX: '100000',
  SIGN_IN_MAX_FAILURES: '3',
  SIGN_IN_ADDRESS_MAX_FAILURES: '1000',
});
let org: TestOrg;
let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  org = await server.org();
  // Most requests below are made by hand without PKCE: an app that allows it.
  app = await createApp(server, org.id, {
    redirectUris: ['http://127.0.0.1:8765/callback', 'https://app.example.test/oauth/done?tenant=1'],
    requirePkce: false,
  });
  user = await createUser(server, org.id);
});

function expectOAuthError(res: { status: number; body: unknown; text: string }, status: number, error: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ error, error_description: expect.any(String) });
}

const contacts = (s: ServerFixture, token: string) => s.rest('GET', '/v1/crm/contacts', { key: token });

const request_ = (overrides: Record<string, string | undefined> = {}) =>
  authorizeUrl({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    response_type: 'code',
    scope: 'crm:read',
    state: 'st',
    ...overrides,
  });

/** The consent page's redirect for a signed-in browser (or the error it answers). */
async function signedInBrowser(): Promise<Browser> {
  const { browser } = await obtainCode(server, app, user);
  return browser;
}

describe('client authentication at /oauth/token', () => {
  it('refuses a wrong client secret sent in the body (401 invalid_client, as by Basic)', async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    const res = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.redirectUri,
      client_id: app.clientId,
      client_secret: 'bpcs_thisIsNotTheSecretOfTheAppAtAllReally00',
      code_verifier: verifier,
    });
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
    // The code is still good for the real app.
    expect((await exchangeCode(server, app, code, verifier)).status).toBe(200);
  });

  it('refuses a wrong secret sent by HTTP Basic with 401 and a Basic challenge', async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    const res = await tokenRequest(
      server,
      { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, code_verifier: verifier },
      { basic: [app.clientId, 'bpcs_wrong'] },
    );
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
  });

  it('refuses an unknown client_id', async () => {
    const res = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code: 'bpac_x',
      redirect_uri: app.redirectUri,
      client_id: 'bpc_doesnotexist00000000000000000',
      client_secret: 'bpcs_x',
    });
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
  });

  it('refuses a confidential app that sends only a PKCE verifier and no secret', async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    const res = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.redirectUri,
      client_id: app.clientId,
      code_verifier: verifier,
    });
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
  });

  it('refuses a code issued to another app (invalid_grant)', async () => {
    const other = await createApp(server, org.id, { name: 'Other' });
    const { code, verifier } = await obtainCode(server, app, user);
    const res = await exchangeCode(server, other, code, verifier);
    expectOAuthError(res, 400, 'invalid_grant');
  });
});

describe('the authorization request', () => {
  it('shows an error page, never a redirect, for an unknown client_id', async () => {
    const page = await new Browser(server.url).get(request_({ client_id: 'bpc_unknown000000000000000000000000' }));
    expect(page.status).toBe(400);
    expect(page.location).toBeUndefined();
    expect(page.html).toContain('not known');
  });

  it.each([
    ['another path', 'http://127.0.0.1:8765/callback/evil'],
    ['another port', 'http://127.0.0.1:8766/callback'],
    ['an extra query', 'http://127.0.0.1:8765/callback?next=evil'],
    ['a trailing slash', 'http://127.0.0.1:8765/callback/'],
    ['another host', 'http://evil.example.test/callback'],
    ['another scheme', 'https://127.0.0.1:8765/callback'],
    ['a query changed', 'https://app.example.test/oauth/done?tenant=2'],
  ])('shows an error page, never a redirect, for a redirect_uri with %s', async (_what, redirectUri) => {
    const page = await new Browser(server.url).get(request_({ redirect_uri: redirectUri }));
    expect(page.status).toBe(400);
    expect(page.location).toBeUndefined();
    expect(page.html).toContain('not registered');
  });

  it('redirects exactly to a registered URI that has its own query, keeping it', async () => {
    const registered = 'https://app.example.test/oauth/done?tenant=1';
    const browser = await signedInBrowser();
    const consent = await browser.get(request_({ redirect_uri: registered }));
    const back = new URL((await browser.decide(consent, 'allow')).location!);
    expect(back.searchParams.get('tenant')).toBe('1');
    expect(back.searchParams.get('code')).toMatch(/^bpac_/);
  });

  it('sends invalid_scope back to the app for a scope the app is not registered for', async () => {
    const page = await new Browser(server.url).get(request_({ scope: 'crm:read finance:write' }));
    expect(page.status).toBe(302);
    const back = new URL(page.location!);
    expect(back.origin + back.pathname).toBe(app.redirectUri);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('state')).toBe('st');
  });

  it('sends unsupported_response_type back for response_type=token', async () => {
    const page = await new Browser(server.url).get(request_({ response_type: 'token' }));
    expect(new URL(page.location!).searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('refuses the plain PKCE method (invalid_request), and issues no code', async () => {
    const page = await new Browser(server.url).get(
      request_({ code_challenge: pkcePair().verifier, code_challenge_method: 'plain' }),
    );
    const back = new URL(page.location!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toContain('S256');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses a code_challenge without a method (the default, plain, is not supported)', async () => {
    const page = await new Browser(server.url).get(request_({ code_challenge: pkcePair().challenge }));
    expect(new URL(page.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('requires PKCE of a new confidential app by default (RFC 9700 2.1.1), on the redirect', async () => {
    const strict = await createApp(server, org.id, { name: 'Strict' });
    const without = await new Browser(server.url).get(
      authorizeUrl({ client_id: strict.clientId, redirect_uri: strict.redirectUri, response_type: 'code', state: 'p' }),
    );
    expect(without.status).toBe(302);
    const back = new URL(without.location!);
    expect(back.origin + back.pathname).toBe(strict.redirectUri);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toContain('PKCE');
    expect(back.searchParams.get('state')).toBe('p');
    expect(back.searchParams.get('code')).toBeNull();
    // With a challenge the same request goes on to sign-in, and the code works.
    const { code, verifier } = await obtainCode(server, strict, user);
    expect((await exchangeCode(server, strict, code, verifier)).status).toBe(200);
  });

  it('requires PKCE of a public app', async () => {
    const publicApp = await createApp(server, org.id, { clientType: 'public' });
    const page = await new Browser(server.url).get(
      authorizeUrl({ client_id: publicApp.clientId, redirect_uri: publicApp.redirectUri, response_type: 'code' }),
    );
    const back = new URL(page.location!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toContain('PKCE');
  });
});

describe('PKCE at the token endpoint', () => {
  it('refuses a missing code_verifier for a code issued with a challenge (invalid_request: RFC 6749 5.2)', async () => {
    const { code } = await obtainCode(server, app, user);
    const res = await exchangeCode(server, app, code);
    expectOAuthError(res, 400, 'invalid_request');
    expect(res.body.error_description).toContain('code_verifier');
  });

  it('refuses a wrong code_verifier (invalid_grant), and the code is spent', async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    expectOAuthError(await exchangeCode(server, app, code, pkcePair().verifier), 400, 'invalid_grant');
    expectOAuthError(await exchangeCode(server, app, code, verifier), 400, 'invalid_grant');
  });

  it('refuses a verifier for a code issued without a challenge', async () => {
    const { code } = await obtainCode(server, app, user, { pkce: false });
    expectOAuthError(await exchangeCode(server, app, code, pkcePair().verifier), 400, 'invalid_grant');
  });
});

describe('redirect_uri at the token endpoint', () => {
  const exchangeWith = (code: string, verifier: string | undefined, redirectUri: string | undefined) =>
    tokenRequest(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
      code_verifier: verifier,
    });

  it("refuses one that differs from the authorization request's (invalid_grant, RFC 6749 5.2)", async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    // Registered for the app, but not the one the code was issued to.
    const res = await exchangeWith(code, verifier, 'https://app.example.test/oauth/done?tenant=1');
    expectOAuthError(res, 400, 'invalid_grant');
    expect(res.body.error_description).toContain('redirect_uri');
  });

  it('refuses a missing one (invalid_request: it was in the authorization request)', async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    const res = await exchangeWith(code, verifier, undefined);
    expectOAuthError(res, 400, 'invalid_request');
    expect(res.body.error_description).toContain('redirect_uri');
  });
});

describe('codes', () => {
  it('refuses an expired code (invalid_grant)', async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    await server.prisma.oAuthCode.update({
      where: { codeHash: sha256Hex(code) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await exchangeCode(server, app, code, verifier);
    expectOAuthError(res, 400, 'invalid_grant');
    expect(res.body.error_description).toContain('expired');
  });

  it('expire 10 minutes after they are issued', async () => {
    const before = Date.now();
    const { code } = await obtainCode(server, app, user);
    const row = await server.prisma.oAuthCode.findUnique({ where: { codeHash: sha256Hex(code) } });
    const lifetime = row!.expiresAt.getTime() - before;
    expect(lifetime).toBeGreaterThan(595_000);
    expect(lifetime).toBeLessThanOrEqual(601_000);
  });

  it('refuses a reused code, and revokes the tokens it issued', async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    const first = await exchangeCode(server, app, code, verifier);
    expect(first.status).toBe(200);
    expect((await contacts(server, first.body.access_token)).status).toBe(200);
    expectOAuthError(await exchangeCode(server, app, code, verifier), 400, 'invalid_grant');
    expect((await contacts(server, first.body.access_token)).status).toBe(401);
    const refresh = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
    });
    expectOAuthError(refresh, 400, 'invalid_grant');
  });
});

describe("the user's rights at the exchange", () => {
  // Changed in the database, as any change of role or scopes would leave them, so this
  // holds whatever else such a change ends through the API.
  const setScopes = (id: string, scopes: string[]) =>
    server.prisma.user.update({ where: { id }, data: { role: 'member', scopes } });

  it('a scope the user lost since consenting is left out of the token', async () => {
    const member = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
    const { code, verifier } = await obtainCode(server, app, member, { scope: 'crm:read crm:write' });
    await setScopes(member.id, ['crm:read']);
    const res = await exchangeCode(server, app, code, verifier);
    expect(res.status, res.text).toBe(200);
    expect(res.body.scope).toBe('crm:read');
    const write = await server.rest('POST', '/v1/crm/contacts', {
      key: res.body.access_token,
      body: { email: 'lost-write@example.test' },
    });
    expect(write.status).toBe(403);
  });

  it('none left is invalid_grant, and the code is spent', async () => {
    const admin = await createUser(server, org.id);
    const { code, verifier } = await obtainCode(server, app, admin, { scope: 'crm:write' });
    await setScopes(admin.id, ['crm:read']);
    const res = await exchangeCode(server, app, code, verifier);
    expectOAuthError(res, 400, 'invalid_grant');
    await setScopes(admin.id, ['crm:read', 'crm:write']);
    expectOAuthError(await exchangeCode(server, app, code, verifier), 400, 'invalid_grant');
  });
});

describe('refresh tokens', () => {
  it('a rotated refresh token presented again revokes the whole grant', async () => {
    const first = await obtainTokens(server, app, user);
    const refresh = (token: string) =>
      tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: app.clientId,
        client_secret: app.clientSecret!,
      });
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect((await contacts(server, second.body.access_token)).status).toBe(200);
    // The old one again (an attacker's copy, or the app's): refused, and everything of the grant ends.
    expectOAuthError(await refresh(first.refresh_token), 400, 'invalid_grant');
    expect((await contacts(server, second.body.access_token)).status).toBe(401);
    expectOAuthError(await refresh(second.body.refresh_token), 400, 'invalid_grant');
  });

  it('refuses a scope wider than granted (invalid_scope), and the token still works', async () => {
    const tokens = await obtainTokens(server, app, user, { scope: 'crm:read' });
    const res = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
      scope: 'crm:read crm:write',
    });
    expectOAuthError(res, 400, 'invalid_scope');
  });

  it('refuses a refresh token of another app', async () => {
    const other = await createApp(server, org.id, { name: 'Other' });
    const tokens = await obtainTokens(server, app, user);
    const res = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: other.clientId,
      client_secret: other.clientSecret!,
    });
    expectOAuthError(res, 400, 'invalid_grant');
  });
});

describe('access tokens on the API', () => {
  it('a revoked access token is 401 on /v1 and /graphql', async () => {
    const tokens = await obtainTokens(server, app, user);
    await tokenRequest(
      server,
      { token: tokens.access_token },
      { path: '/oauth/revoke', basic: [app.clientId, app.clientSecret!] },
    );
    const rest = await contacts(server, tokens.access_token);
    expect(rest.status).toBe(401);
    expect(rest.body.error.code).toBe('UNAUTHORIZED');
    expect(rest.body.error.message).toContain('revoked');
    const gql = await server.gql('{ contacts { data { id } } }', {}, { key: tokens.access_token });
    expect(gql.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    expect(gql.data?.contacts ?? null).toBeNull();
  });

  it('an expired access token is 401', async () => {
    const tokens = await obtainTokens(server, app, user);
    await server.prisma.oAuthAccessToken.update({
      where: { tokenHash: sha256Hex(tokens.access_token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await contacts(server, tokens.access_token);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain('expired');
  });

  it("cannot reach another organization's records (404), nor list them", async () => {
    const other = await server.org();
    const otherKey = await other.key(['crm:write']);
    const theirs = await server.rest('POST', '/v1/crm/contacts', {
      key: otherKey,
      body: { email: 'theirs@example.test' },
    });
    expect(theirs.status).toBe(201);
    const tokens = await obtainTokens(server, app, user, { scope: 'crm:read crm:write' });
    expect((await server.rest('GET', `/v1/crm/contacts/${theirs.body.id}`, { key: tokens.access_token })).status).toBe(
      404,
    );
    const put = await server.rest('PUT', `/v1/crm/contacts/${theirs.body.id}`, {
      key: tokens.access_token,
      body: { company: 'x' },
    });
    expect(put.status).toBe(404);
    const list = await contacts(server, tokens.access_token);
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(theirs.body.id);
  });

  it('a made-up token of the right shape is 401', async () => {
    const res = await contacts(server, `bpat_${'a'.repeat(40)}`);
    expect(res.status).toBe(401);
  });
});

describe('the consent form', () => {
  it('refuses a POST without the CSRF token (403), issuing no code', async () => {
    const browser = await signedInBrowser();
    const consent = await browser.get(request_());
    const { fields } = formOf(consent.html);
    const { csrf_token: _dropped, ...rest } = fields;
    const res = await browser.post('/oauth/authorize', { ...rest, decision: 'allow' });
    expect(res.status).toBe(403);
    expect(res.location).toBeUndefined();
    expect(res.html).toContain('expired or did not come from this site');
  });

  it("refuses another browser's CSRF token", async () => {
    const victim = await signedInBrowser();
    const attacker = await signedInBrowser();
    const attackersForm = formOf((await attacker.get(request_())).html);
    const res = await victim.post('/oauth/authorize', { ...attackersForm.fields, decision: 'allow' });
    expect(res.status).toBe(403);
  });

  it('without a session (a valid form, but nobody signed in), shows the sign-in page and issues no code', async () => {
    const signedIn = await signedInBrowser();
    const { csrf_token: _theirs, ...request } = formOf((await signedIn.get(request_())).html).fields;
    const anonymous = new Browser(server.url);
    const signInPage = await anonymous.get(request_());
    const csrf = formOf(signInPage.html).fields.csrf_token!;
    const res = await anonymous.post('/oauth/authorize', { ...request, csrf_token: csrf, decision: 'allow' });
    expect(res.status).toBe(401);
    expect(res.location).toBeUndefined();
    expect(res.html).toContain('action="/oauth/sign-in"');
  });

  it('after signing out, the consent page is gone until the user signs in again', async () => {
    const browser = await signedInBrowser();
    const consent = await browser.get(request_());
    const csrf = formOf(consent.html).fields.csrf_token!;
    const out = await browser.post('/oauth/sign-out', { csrf_token: csrf, continue: request_() });
    expect(out.status).toBe(303);
    const after = await browser.get(out.location!);
    expect(after.html).toContain('action="/oauth/sign-in"');
    expect(after.html).not.toContain('value="allow"');
  });

  it('refuses a sign-in POST without the CSRF token', async () => {
    const browser = new Browser(server.url);
    const page = await browser.get(request_());
    const { csrf_token: _dropped, ...rest } = formOf(page.html).fields;
    const res = await browser.post('/oauth/sign-in', { ...rest, email: user.email, password: user.password });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie') ?? '').not.toContain('Max-Age');
  });
});

describe('sign-in', () => {
  it('says the email or password is wrong, without telling which', async () => {
    const browser = new Browser(server.url);
    const wrongPassword = await browser.signIn(await browser.get(request_()), {
      email: user.email,
      password: 'nope nope nope',
    });
    const unknownEmail = await browser.signIn(await browser.get(request_()), {
      email: 'nobody@example.test',
      password: 'nope nope nope',
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.html).toContain('The email or password is not right.');
    expect(unknownEmail.html).toContain('The email or password is not right.');
  });

  it('locks an account after too many failed sign-ins, even against the right password (429)', async () => {
    const victim = await createUser(server, org.id);
    const browser = new Browser(server.url);
    for (let i = 0; i < 3; i++) {
      const res = await browser.signIn(await browser.get(request_()), {
        email: victim.email,
        password: `guess ${i} guess`,
      });
      expect(res.status).toBe(401);
    }
    const locked = await browser.signIn(await browser.get(request_()), victim);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.html).toContain('Too many failed sign-ins');
    // From another browser too: the limit is the account's.
    const elsewhere = new Browser(server.url);
    expect((await elsewhere.signIn(await elsewhere.get(request_()), victim)).status).toBe(429);
    // Other accounts are not affected.
    const other = await createUser(server, org.id);
    expect((await elsewhere.signIn(await elsewhere.get(request_()), other)).status).toBe(303);
  });
});

describe('an idle session (SESSION_IDLE_TIMEOUT_S)', () => {
  const idle = useServer({ SESSION_IDLE_TIMEOUT_S: '600' });
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

  /** A browser signed in to `idle`, its session row, and the authorization request to reopen. */
  async function signedIn() {
    const o = await idle.org();
    const a = await createApp(idle, o.id);
    const someone = await createUser(idle, o.id);
    const { browser } = await obtainCode(idle, a, someone);
    const url = authorizeUrl({
      client_id: a.clientId,
      redirect_uri: a.redirectUri,
      response_type: 'code',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    const tokenHash = sha256Hex(browser.cookies.get('bp_session')!);
    const session = () => idle.prisma.session.findUnique({ where: { tokenHash } });
    const setLastSeen = (at: Date) => idle.prisma.session.update({ where: { tokenHash }, data: { lastSeenAt: at } });
    return { browser, url, session, setLastSeen };
  }

  it('is signed out once idle longer than the setting; its use before then slides the window', async () => {
    const { browser, url, session, setLastSeen } = await signedIn();
    await setLastSeen(minutesAgo(9));
    const used = await browser.get(url);
    expect(used.html).toContain('value="allow"');
    expect(Date.now() - (await session())!.lastSeenAt.getTime()).toBeLessThan(10_000);
    // Another 9 minutes later it is still in use: 18 minutes after the first, but never 10 idle.
    await setLastSeen(minutesAgo(9));
    expect((await browser.get(url)).html).toContain('value="allow"');
    await setLastSeen(minutesAgo(11));
    const after = await browser.get(url);
    expect(after.html).toContain('action="/oauth/sign-in"');
    expect(after.html).not.toContain('value="allow"');
    expect(await session()).toBeNull();
  });

  it('records its use at most once a minute', async () => {
    const { browser, url, session } = await signedIn();
    const first = (await session())!.lastSeenAt.getTime();
    expect((await browser.get(url)).html).toContain('value="allow"');
    expect((await session())!.lastSeenAt.getTime()).toBe(first);
  });

  it('still ends at its absolute end, however active', async () => {
    const { browser, url, session } = await signedIn();
    const { tokenHash } = (await session())!;
    await idle.prisma.session.update({ where: { tokenHash }, data: { expiresAt: minutesAgo(1) } });
    expect((await browser.get(url)).html).toContain('action="/oauth/sign-in"');
  });
});

describe('failed sign-ins per client address', () => {
  const limited = useServer({ SIGN_IN_MAX_FAILURES: '100', SIGN_IN_ADDRESS_MAX_FAILURES: '4' });

  it('are limited too, across accounts (429)', async () => {
    const o = await limited.org();
    const a = await createApp(limited, o.id, { requirePkce: false });
    const someone = await createUser(limited, o.id);
    const url = authorizeUrl({ client_id: a.clientId, redirect_uri: a.redirectUri, response_type: 'code' });
    const browser = new Browser(limited.url);
    for (let i = 0; i < 4; i++) {
      const res = await browser.signIn(await browser.get(url), {
        email: `guess${i}@example.test`,
        password: 'whatever!',
      });
      expect(res.status).toBe(401);
    }
    const res = await browser.signIn(await browser.get(url), someone);
    expect(res.status).toBe(429);
  });
});

describe('malformed token requests', () => {
  it('an unsupported grant type is unsupported_grant_type', async () => {
    const res = await tokenRequest(server, {
      grant_type: 'password',
      username: user.email,
      password: user.password,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
  });

  it('a body that is neither form-encoded nor JSON is invalid_request', async () => {
    const res = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'grant_type=authorization_code',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it('malformed JSON, and a JSON value that is not a string, are invalid_request', async () => {
    const bad = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('invalid_request');
    const nested = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: { $ne: 1 } }),
    });
    expect(nested.status).toBe(400);
    expect((await nested.json()).error).toBe('invalid_request');
  });

  it('a missing grant_type is invalid_request; GET is 405', async () => {
    const res = await tokenRequest(server, { client_id: app.clientId, client_secret: app.clientSecret! });
    expectOAuthError(res, 400, 'invalid_request');
    const get = await fetch(`${server.url}/oauth/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('revocation across server processes', () => {
  const [a, b] = useServerPair({ RATE_LIMIT_MAX: '100000' });

  it('a token revoked through one process is refused by the other at once', async () => {
    const o = await a.org();
    const pairApp = await createApp(a, o.id);
    const someone = await createUser(a, o.id);
    const tokens = await obtainTokens(a, pairApp, someone);
    expect((await contacts(b, tokens.access_token)).status).toBe(200); // cached in b now
    await tokenRequest(
      a,
      { token: tokens.access_token },
      { path: '/oauth/revoke', basic: [pairApp.clientId, pairApp.clientSecret!] },
    );
    const deadline = Date.now() + 2000;
    let status = 200;
    while (Date.now() < deadline && status === 200) {
      status = (await contacts(b, tokens.access_token)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe(401);
  });
});
