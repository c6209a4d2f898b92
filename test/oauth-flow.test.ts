// The authorization service as an app developer and a user meet it, by hand
// (fetch and the pages' forms): sign in, consent, code, token, API calls with
// the token on /v1 and /graphql, refresh with rotation, revocation,
// introspection, client_credentials with an API key, and the server metadata.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { prune } from '../src/jobs/prune.js';
import { sha256Hex } from '../src/auth/secrets.js';
import { useServer, type TestOrg } from './support/fixtures.js';
import {
  authorizeUrl,
  Browser,
  createApp,
  createKeyWithSecret,
  createUser,
  exchangeCode,
  obtainCode,
  obtainTokens,
  pkcePair,
  tokenRequest,
  type TestApp,
  type TestUser,
} from './support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '100000', PUBLIC_URL: 'http://auth.example.test' });
const ISSUER = 'http://auth.example.test';
let org: TestOrg;
let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  org = await server.org();
  // The pages' tests below open /oauth/authorize by hand without PKCE: an app that allows it.
  app = await createApp(server, org.id, { requirePkce: false });
  user = await createUser(server, org.id);
});

const bearer = (token: string) => ({ key: token });

describe('the authorization code flow', () => {
  it('signs in, consents, exchanges the code and reads contacts with the token', async () => {
    const browser = new Browser(server.url);
    const { verifier, challenge } = pkcePair();
    const back = await browser.authorize(
      authorizeUrl({
        client_id: app.clientId,
        redirect_uri: app.redirectUri,
        response_type: 'code',
        scope: 'crm:read',
        state: 'xyz',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      user,
    );
    expect(back.origin + back.pathname).toBe(app.redirectUri);
    expect(back.searchParams.get('state')).toBe('xyz');
    expect(back.searchParams.get('iss')).toBe(ISSUER);
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^bpac_[0-9A-Za-z]{40}$/);
    const res = await exchangeCode(server, app, code, verifier);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(Object.keys(res.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'crm:read' });
    expect(res.body.access_token).toMatch(/^bpat_[0-9A-Za-z]{40}$/);
    expect(res.body.refresh_token).toMatch(/^bprt_[0-9A-Za-z]{40}$/);
    const contacts = await server.rest('GET', '/v1/crm/contacts', bearer(res.body.access_token));
    expect(contacts.status, contacts.text).toBe(200);
  });

  it('takes the JSON body the specification shows, and client credentials by HTTP Basic', async () => {
    const json = await obtainCode(server, app, user);
    const viaJson = await tokenRequest(
      server,
      {
        grant_type: 'authorization_code',
        code: json.code,
        client_id: app.clientId,
        client_secret: app.clientSecret!,
        redirect_uri: app.redirectUri,
        code_verifier: json.verifier,
      },
      { json: true },
    );
    expect(viaJson.status, viaJson.text).toBe(200);
    expect(viaJson.body.token_type).toBe('Bearer');

    const basic = await obtainCode(server, app, user);
    const viaBasic = await tokenRequest(
      server,
      {
        grant_type: 'authorization_code',
        code: basic.code,
        redirect_uri: app.redirectUri,
        code_verifier: basic.verifier,
      },
      { basic: [app.clientId, app.clientSecret!] },
    );
    expect(viaBasic.status, viaBasic.text).toBe(200);
  });

  it('works without PKCE for a confidential app that does not require it', async () => {
    const { code } = await obtainCode(server, app, user, { pkce: false });
    const res = await exchangeCode(server, app, code);
    expect(res.status, res.text).toBe(200);
  });

  it('lets a public app (no secret) through with PKCE', async () => {
    const publicApp = await createApp(server, org.id, { clientType: 'public' });
    expect(publicApp.clientSecret).toBeNull();
    const { code, verifier } = await obtainCode(server, publicApp, user);
    const res = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: publicApp.redirectUri,
      client_id: publicApp.clientId,
      code_verifier: verifier,
    });
    expect(res.status, res.text).toBe(200);
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: res.body.refresh_token,
      client_id: publicApp.clientId,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
  });

  it('the token works on /graphql with its scopes, and not beyond them', async () => {
    const tokens = await obtainTokens(server, app, user, { scope: 'crm:read' });
    const read = await server.gql('{ contacts { data { id } } }', {}, bearer(tokens.access_token));
    expect(read.errors, read.text).toBeUndefined();
    const write = await server.gql(
      'mutation { createContact(input: {email: "x@example.test"}) { id } }',
      {},
      bearer(tokens.access_token),
    );
    expect(write.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const rest = await server.rest('POST', '/v1/crm/contacts', {
      ...bearer(tokens.access_token),
      body: { email: 'y@example.test' },
    });
    expect(rest.status).toBe(403);
    expect(rest.body.error.message).toContain('crm:write');
  });

  it('stores codes and tokens only as SHA-256 hashes', async () => {
    const { code, verifier } = await obtainCode(server, app, user);
    const stored = await server.prisma.oAuthCode.findUnique({ where: { codeHash: sha256Hex(code) } });
    expect(stored).not.toBeNull();
    const res = await exchangeCode(server, app, code, verifier);
    const access = await server.prisma.oAuthAccessToken.findUnique({
      where: { tokenHash: sha256Hex(res.body.access_token) },
    });
    const refresh = await server.prisma.oAuthRefreshToken.findUnique({
      where: { tokenHash: sha256Hex(res.body.refresh_token) },
    });
    expect(access).not.toBeNull();
    expect(refresh).not.toBeNull();
    const everything = JSON.stringify([
      await server.prisma.oAuthCode.findMany(),
      await server.prisma.oAuthAccessToken.findMany(),
      await server.prisma.oAuthRefreshToken.findMany(),
      await server.prisma.oAuthApp.findMany(),
    ]);
    for (const secret of [code, res.body.access_token, res.body.refresh_token, app.clientSecret!]) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe('the sign-in and consent pages', () => {
  it('name the app, its description and each scope in words, and who is signed in', async () => {
    const browser = new Browser(server.url);
    const url = authorizeUrl({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: 'crm:read crm:write',
      state: 's',
    });
    const signIn = await browser.get(url);
    expect(signIn.status).toBe(200);
    expect(signIn.html).toContain('Test App');
    expect(signIn.html).toContain('name="password"');
    const signedIn = await browser.signIn(signIn, user);
    const consent = await browser.get(signedIn.location!);
    expect(consent.html).toContain('Allow Test App to access your account?');
    expect(consent.html).toContain('Syncs your contacts with Test App.');
    expect(consent.html).toContain('Read CRM contacts and deals.');
    expect(consent.html).toContain('Create and update CRM data.');
    expect(consent.html).toContain(user.email);
    expect(consent.html).toContain('value="allow"');
    expect(consent.html).toContain('value="deny"');
  });

  it('set a session cookie that is HttpOnly and SameSite=Lax, and forbid framing and caching', async () => {
    const browser = new Browser(server.url);
    const page = await browser.get(
      authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code' }),
    );
    const cookie = page.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^bp_session=bpss_/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i); // plain HTTP here
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    const signedIn = await browser.signIn(page, user);
    expect(signedIn.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    // A new token at sign-in: the one given before signing in is not the session.
    expect(browser.cookies.get('bp_session')).not.toBe(cookie.split(';')[0]!.split('=')[1]);
  });

  it('mark the session cookie Secure when the request came over TLS (here through a trusted proxy)', async () => {
    const res = await fetch(
      server.url + authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code' }),
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
  });

  it("carry their stylesheet inline, allowed by the CSP's hash of it (and nothing else may run)", async () => {
    const page = await new Browser(server.url).get(
      authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code' }),
    );
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.html)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain(`style-src 'sha256-${hash}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
  });

  it('escape what an app registered (its name and description) and the state parameter', async () => {
    const hostile = await createApp(server, org.id, { name: '<script>alert(1)</script>', requirePkce: false });
    await server.services.oauthApps.update(
      { organizationId: org.id, scopes: new Set(['admin']), credential: { type: 'operator', id: 'operator' } },
      hostile.id,
      { description: '"><img src=x onerror=alert(2)>' },
    );
    const browser = new Browser(server.url);
    const signIn = await browser.get(
      authorizeUrl({
        client_id: hostile.clientId,
        redirect_uri: hostile.redirectUri,
        response_type: 'code',
        state: '"><script>alert(3)</script>',
      }),
    );
    expect(signIn.html).not.toContain('<script>alert(1)');
    expect(signIn.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const consent = await browser.get((await browser.signIn(signIn, user)).location!);
    expect(consent.html).not.toContain('<script>');
    expect(consent.html).not.toContain('<img');
    expect(consent.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
  });

  it('Deny sends the user back with error=access_denied and the state, and no code', async () => {
    const back = await new Browser(server.url).authorize(
      authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', state: 'st' }),
      user,
      'deny',
    );
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('a signed-in browser goes straight to the consent page', async () => {
    const { browser } = await obtainCode(server, app, user);
    const again = await browser.get(
      authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code' }),
    );
    expect(again.html).toContain('value="allow"');
  });

  it('signing in raises user.logged_in', async () => {
    const someone = await createUser(server, org.id);
    await obtainCode(server, app, someone);
    const events = await server.prisma.event.findMany({ where: { organizationId: org.id, type: 'user.logged_in' } });
    const objects = events.map((event) => (event.data as { object: { id: string; email: string } }).object);
    expect(objects).toContainEqual(expect.objectContaining({ id: someone.id, email: someone.email }));
    expect(JSON.stringify(objects)).not.toContain('passwordHash');
  });

  it('grants a member only the scopes it holds, and says which it cannot grant', async () => {
    const member = await createUser(server, org.id, { role: 'member', scopes: ['crm:read'] });
    const browser = new Browser(server.url);
    const signIn = await browser.get(
      authorizeUrl({
        client_id: app.clientId,
        redirect_uri: app.redirectUri,
        response_type: 'code',
        scope: 'crm:read crm:write',
      }),
    );
    const consent = await browser.get((await browser.signIn(signIn, member)).location!);
    expect(consent.html).toContain('not yours to grant: crm:write');
    const back = new URL((await browser.decide(consent, 'allow')).location!);
    const res = await exchangeCode(server, app, back.searchParams.get('code')!);
    expect(res.body.scope).toBe('crm:read');
  });

  it('refuses a user of another organization (access_denied)', async () => {
    const other = await server.org();
    const outsider = await createUser(server, other.id);
    const browser = new Browser(server.url);
    const signIn = await browser.get(
      authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', state: 'q' }),
    );
    const signedIn = await browser.signIn(signIn, outsider);
    const refused = await browser.get(signedIn.location!);
    expect(refused.status).toBe(302);
    const back = new URL(refused.location!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('q');
  });

  it('asks for the app’s registered scopes when the request names none', async () => {
    const tokens = await obtainTokens(server, app, user, { scope: undefined });
    // obtainCode defaults to crm:read; ask again with no scope at all:
    expect(tokens.scope).toBe('crm:read');
    const browser = new Browser(server.url);
    const back = await browser.authorize(
      authorizeUrl({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code' }),
      user,
    );
    const res = await exchangeCode(server, app, back.searchParams.get('code')!);
    expect(res.body.scope).toBe('crm:read crm:write');
  });
});

describe('refresh', () => {
  it('rotates the refresh token on every use; the new access token works', async () => {
    const first = await obtainTokens(server, app, user);
    const second = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'crm:read' });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    const contacts = await server.rest('GET', '/v1/crm/contacts', bearer(second.body.access_token));
    expect(contacts.status).toBe(200);
    const third = await tokenRequest(
      server,
      { grant_type: 'refresh_token', refresh_token: second.body.refresh_token },
      { json: true, basic: [app.clientId, app.clientSecret!] },
    );
    expect(third.status, third.text).toBe(200);
  });

  it('may narrow the scope', async () => {
    const tokens = await obtainTokens(server, app, user, { scope: 'crm:read crm:write' });
    const narrower = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
      scope: 'crm:read',
    });
    expect(narrower.status, narrower.text).toBe(200);
    expect(narrower.body.scope).toBe('crm:read');
  });
});

describe('revocation (RFC 7009) and introspection (RFC 7662)', () => {
  it('introspects a live token for the app that holds it', async () => {
    const tokens = await obtainTokens(server, app, user);
    const res = await tokenRequest(
      server,
      { token: tokens.access_token },
      { path: '/oauth/introspect', basic: [app.clientId, app.clientSecret!] },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      active: true,
      scope: 'crm:read',
      client_id: app.clientId,
      token_type: 'Bearer',
      sub: user.id,
      iss: ISSUER,
    });
    expect(res.body.exp - res.body.iat).toBe(3600);
  });

  it('revoking an access token stops it at once on /v1; introspection then says inactive', async () => {
    const tokens = await obtainTokens(server, app, user);
    expect((await server.rest('GET', '/v1/crm/contacts', bearer(tokens.access_token))).status).toBe(200);
    const revoked = await tokenRequest(
      server,
      {
        token: tokens.access_token,
        token_type_hint: 'access_token',
        client_id: app.clientId,
        client_secret: app.clientSecret!,
      },
      { path: '/oauth/revoke' },
    );
    expect(revoked.status, revoked.text).toBe(200);
    const after = await server.rest('GET', '/v1/crm/contacts', bearer(tokens.access_token));
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const res = await tokenRequest(
      server,
      { token: tokens.access_token },
      { path: '/oauth/introspect', basic: [app.clientId, app.clientSecret!] },
    );
    expect(res.body).toEqual({ active: false });
  });

  it('revoking a refresh token ends its grant: the access token too', async () => {
    const tokens = await obtainTokens(server, app, user);
    const revoked = await tokenRequest(
      server,
      { token: tokens.refresh_token },
      { path: '/oauth/revoke', basic: [app.clientId, app.clientSecret!], json: true },
    );
    expect(revoked.status).toBe(200);
    expect((await server.rest('GET', '/v1/crm/contacts', bearer(tokens.access_token))).status).toBe(401);
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it("answers 200 to an unknown token and leaves another app's token alone", async () => {
    const otherApp = await createApp(server, org.id, { name: 'Other' });
    const tokens = await obtainTokens(server, app, user);
    const unknown = await tokenRequest(
      server,
      { token: 'bpat_nothing' },
      { path: '/oauth/revoke', basic: [otherApp.clientId, otherApp.clientSecret!] },
    );
    expect(unknown.status).toBe(200);
    const others = await tokenRequest(
      server,
      { token: tokens.access_token },
      { path: '/oauth/revoke', basic: [otherApp.clientId, otherApp.clientSecret!] },
    );
    expect(others.status).toBe(200);
    expect((await server.rest('GET', '/v1/crm/contacts', bearer(tokens.access_token))).status).toBe(200);
    const peek = await tokenRequest(
      server,
      { token: tokens.access_token },
      { path: '/oauth/introspect', basic: [otherApp.clientId, otherApp.clientSecret!] },
    );
    expect(peek.body).toEqual({ active: false });
  });

  it('introspection needs an authenticated confidential client (401 invalid_client)', async () => {
    const tokens = await obtainTokens(server, app, user);
    const anonymous = await tokenRequest(server, { token: tokens.access_token }, { path: '/oauth/introspect' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('invalid_client');
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await tokenRequest(
      server,
      { token: tokens.access_token },
      { path: '/oauth/introspect', basic: [app.clientId, 'bpcs_wrong'] },
    );
    expect(wrong.status).toBe(401);
  });
});

describe('client_credentials with an API key', () => {
  it("issues a short-lived token with the key's scopes that works like the key", async () => {
    const { id, key, secret } = await createKeyWithSecret(server, org.id, ['crm:read']);
    const res = await tokenRequest(server, { grant_type: 'client_credentials', client_id: key, client_secret: secret });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'crm:read' });
    expect((await server.rest('GET', '/v1/crm/contacts', bearer(res.body.access_token))).status).toBe(200);
    // Revoking the key ends its tokens at once.
    await server.revokeKey(id);
    expect((await server.rest('GET', '/v1/crm/contacts', bearer(res.body.access_token))).status).toBe(401);
  });

  it('refuses a wrong secret (invalid_client) and a scope the key lacks (invalid_scope)', async () => {
    const { key, secret } = await createKeyWithSecret(server, org.id, ['crm:read']);
    const wrong = await tokenRequest(server, {
      grant_type: 'client_credentials',
      client_id: key,
      client_secret: 'bps_wrong',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const wider = await tokenRequest(server, {
      grant_type: 'client_credentials',
      client_id: key,
      client_secret: secret,
      scope: 'crm:write',
    });
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('lives no longer than its key', async () => {
    const expiresAt = new Date(Date.now() + 120_000);
    const { key, secret } = await createKeyWithSecret(server, org.id, ['crm:read'], { expiresAt });
    const res = await tokenRequest(server, { grant_type: 'client_credentials', client_id: key, client_secret: secret });
    expect(res.status, res.text).toBe(200);
    expect(res.body.expires_in).toBeLessThanOrEqual(120);
    expect(res.body.expires_in).toBeGreaterThan(100);
  });
});

describe('server metadata (RFC 8414)', () => {
  it('lists the endpoints, grants, scopes and S256 under the issuer from PUBLIC_URL', async () => {
    const res = await server.rest('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth/authorize`,
      token_endpoint: `${ISSUER}/oauth/token`,
      revocation_endpoint: `${ISSUER}/oauth/revoke`,
      introspection_endpoint: `${ISSUER}/oauth/introspect`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: expect.arrayContaining([
        'client_secret_basic',
        'client_secret_post',
        'none',
      ]),
    });
    expect(res.body.scopes_supported).toEqual([
      'crm:read',
      'crm:write',
      'hr:read',
      'hr:write',
      'hr:payroll',
      'finance:read',
      'finance:write',
      'admin',
    ]);
  });
});

describe('clean-up', () => {
  it('the hourly prune forgets codes and tokens a day after they expired, and keeps live ones', async () => {
    const expired = await obtainTokens(server, app, user);
    const live = await obtainTokens(server, app, user);
    const longAgo = new Date(Date.now() - 2 * 86_400_000);
    await server.prisma.oAuthAccessToken.update({
      where: { tokenHash: sha256Hex(expired.access_token) },
      data: { expiresAt: longAgo },
    });
    await server.prisma.oAuthRefreshToken.update({
      where: { tokenHash: sha256Hex(expired.refresh_token) },
      data: { expiresAt: longAgo },
    });
    const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
    const pruned = await prune({ pool, config: server.config }).finally(() => pool.end());
    expect(pruned.oauth).toBeGreaterThanOrEqual(2);
    const find = (token: string) =>
      server.prisma.oAuthAccessToken.findUnique({ where: { tokenHash: sha256Hex(token) } });
    expect(await find(expired.access_token)).toBeNull();
    expect(await find(live.access_token)).not.toBeNull();
    expect((await server.rest('GET', '/v1/crm/contacts', bearer(live.access_token))).status).toBe(200);
  });
});

describe('rate limits', () => {
  const limited = useServer({ RATE_LIMIT_MAX: '3', RATE_LIMIT_UNAUTHENTICATED_MAX: '1000' });

  it("a client_credentials token spends its API key's budget: more tokens buy no more requests", async () => {
    const o = await limited.org();
    const { key, secret } = await createKeyWithSecret(limited, o.id, ['crm:read']);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const token = await tokenRequest(limited, {
        grant_type: 'client_credentials',
        client_id: key,
        client_secret: secret,
      });
      expect(token.status, token.text).toBe(200);
      statuses.push((await limited.rest('GET', '/v1/crm/contacts', { key: token.body.access_token })).status);
      statuses.push((await limited.rest('GET', '/v1/crm/contacts', { key: token.body.access_token })).status);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
    expect((await limited.rest('GET', '/v1/crm/contacts', { key })).status).toBe(429);
  });
});
