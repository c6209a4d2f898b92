// Safe when deployed: a server that was not told NODE_ENV keeps the strict
// policies (webhooks only to public https addresses, https redirect URIs beyond
// loopback); behind a load balancer, TRUST_PROXY gives each client its own
// budgets; over https, the session cookie is Secure and __Host- prefixed and
// HSTS is sent, also when only PUBLIC_URL says https.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/contract.js';
import { useServer, type ServerFixture, type TestOrg } from './support/fixtures.js';
import { Browser, consentUrl, createApp, createUser, obtainCode, type TestApp } from './support/oauth.js';
import { eventually, useReceivers, useWorker } from './support/receiver.js';

describe('a server started without NODE_ENV, on a DATABASE_URL', () => {
  // A blank value is unset; the fixture always gives a DATABASE_URL, which then needs the master key.
  const server = useServer({
    NODE_ENV: '',
    RATE_LIMIT_MAX: '1000000',
    WEBHOOK_SECRET_KEY: Buffer.alloc(32, 4).toString('base64'),
  });
  useWorker(server);
  const receiver = useReceivers();
  let org: TestOrg;
  let admin: string;

  beforeAll(async () => {
    org = await server.org();
    admin = await org.key(['admin']);
  });

  it('has the strict policies', () => {
    expect(server.config.nodeEnv).toBeUndefined();
    expect(server.config.localConveniences).toBeNull();
  });

  it('refuses webhooks to loopback, private and metadata addresses, and over http (400 naming url)', async () => {
    const target = await receiver();
    for (const url of [
      target.url,
      `https://127.0.0.1:${new URL(target.url).port}/hook`,
      'http://127.0.0.1:5432/',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.5/hook',
      'http://example.com/hook',
    ]) {
      const res = await server.rest('POST', '/v1/webhooks', { key: admin, body: { url, events: ['contact.created'] } });
      expectError(res, 400, 'VALIDATION_ERROR', 'url');
    }
    expect(target.received).toHaveLength(0);
  });

  it('delivers nothing to a loopback receiver, and shows nothing of its answer', async () => {
    const target = await receiver(() => ({ status: 200, body: 'internal secrets' }));
    const created = await server.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: 'https://93.184.215.14/hook', events: ['contact.created'] },
    });
    expect(created.status, created.text).toBe(201);
    // As if the URL had been stored before this version (or DNS now pointed home).
    await server.prisma.webhook.update({ where: { id: created.body.id }, data: { url: target.url } });
    const { eventIds } = (await server.rest('POST', `/v1/webhooks/${created.body.id}/test`, { key: admin })).body;
    const entry = await eventually(async () => {
      const res = await server.rest('GET', `/v1/webhooks/${created.body.id}/deliveries?eventId=${eventIds[0]}`, {
        key: admin,
      });
      return res.body.data[0];
    });
    expect(entry).toMatchObject({ status: 'failed', statusCode: null });
    expect(JSON.stringify(entry)).not.toContain('internal secrets');
    expect(target.received).toHaveLength(0);
  });

  it('refuses http redirect URIs except on loopback (400 naming redirectUris)', async () => {
    const app = (redirectUris: string[]) =>
      server.rest('POST', '/v1/oauth-apps', { key: admin, body: { name: 'App', redirectUris, scopes: ['crm:read'] } });
    expectError(await app(['http://app.example.test/callback']), 400, 'VALIDATION_ERROR', 'redirectUris');
    expectError(
      await app(['https://app.example.test/callback', 'http://192.168.1.20/callback']),
      400,
      'VALIDATION_ERROR',
      'redirectUris',
    );
    // RFC 8252 7.3: a native app's loopback redirect stays allowed.
    expect((await app(['http://127.0.0.1:8765/callback', 'http://[::1]:8765/callback'])).status).toBe(201);
  });
});

describe('a server with NODE_ENV=test (local conveniences on)', () => {
  const server = useServer({ NODE_ENV: 'test' });

  it('accepts loopback webhooks and http redirect URIs anywhere', async () => {
    expect(server.config.localConveniences).toEqual({ reason: 'NODE_ENV=test' });
    const admin = await (await server.org()).key(['admin']);
    const webhook = await server.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: 'http://127.0.0.1:9/hook', events: ['contact.created'] },
    });
    expect(webhook.status, webhook.text).toBe(201);
    const app = await server.rest('POST', '/v1/oauth-apps', {
      key: admin,
      body: { name: 'App', redirectUris: ['http://app.example.test/callback'], scopes: ['crm:read'] },
    });
    expect(app.status, app.text).toBe(201);
  });
});

/**
 * A request as it reaches the service behind a load balancer at 10.0.0.2 and a
 * sidecar proxy on loopback (each adds the address it saw to X-Forwarded-For).
 */
const throughBalancer = (client: string) => ({ 'x-forwarded-for': `${client}, 10.0.0.2` });

/** Requests without a credential, per client address, in the servers below. */
const BUDGET = 12;

/** Requests without a credential with these headers until one is refused: how many were answered 401. */
async function unauthenticatedBudget(server: ServerFixture, headers: Record<string, string>): Promise<number> {
  for (let answered = 0; answered <= BUDGET; answered++) {
    const res = await server.rest('GET', '/v1/crm/contacts', { headers });
    if (res.status === 429) return answered;
    expect(res.status, res.text).toBe(401);
  }
  return Infinity;
}

describe.each([
  ['the balancer’s subnet', 'loopback, 10.0.0.0/8'],
  ['two hops', '2'],
])('TRUST_PROXY naming %s', (_what, trustProxy) => {
  const server = useServer({
    TRUST_PROXY: trustProxy,
    RATE_LIMIT_UNAUTHENTICATED_MAX: String(BUDGET),
    SIGN_IN_ADDRESS_MAX_FAILURES: '2',
    SIGN_IN_MAX_FAILURES: '100',
  });

  it('gives each client behind the balancer its own budget for requests without a credential', async () => {
    expect(await unauthenticatedBudget(server, throughBalancer('203.0.113.7'))).toBe(BUDGET);
    expect(await unauthenticatedBudget(server, throughBalancer('203.0.113.8'))).toBe(BUDGET);
  });

  it('limits failed sign-ins per client, not for everyone behind the balancer', async () => {
    const org = await server.org();
    const user = await createUser(server, org.id);
    const app = await createApp(server, org.id);
    const url = consentUrl(app);

    const guesser = new Browser(server.url, throughBalancer('198.51.100.1'));
    for (const expected of [401, 401, 429]) {
      const page = await guesser.signIn(await guesser.get(url), { email: user.email, password: 'wrong password' });
      expect(page.status, page.html).toBe(expected);
    }
    expect((await guesser.signIn(await guesser.get(url), user)).html).toContain('Too many failed sign-ins');
    const someoneElse = new Browser(server.url, throughBalancer('198.51.100.2'));
    const signedIn = await someoneElse.signIn(await someoneElse.get(url), user);
    expect(signedIn.status, signedIn.html).toBe(303);
  });
});

describe('TRUST_PROXY=false', () => {
  const server = useServer({ TRUST_PROXY: 'false', RATE_LIMIT_UNAUTHENTICATED_MAX: String(BUDGET) });

  it('believes no X-Forwarded-Proto: no Secure cookie, no HSTS', async () => {
    const app = await createApp(server, (await server.org()).id);
    const url = consentUrl(app);
    const res = await server.rest('GET', url, { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('set-cookie')).toMatch(/^bp_session=bpss_/);
    expect(res.headers.get('set-cookie')).not.toMatch(/Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('believes no X-Forwarded-For: every claimed address shares the connection’s budget', async () => {
    // The test above spent one request of the connection's (127.0.0.1's) budget.
    expect(await unauthenticatedBudget(server, throughBalancer('203.0.113.7'))).toBe(BUDGET - 1);
    expect(await unauthenticatedBudget(server, { 'x-forwarded-for': '203.0.113.8' })).toBe(0);
  });
});

describe('PUBLIC_URL=https://… in front of a plain-HTTP service', () => {
  const server = useServer({ PUBLIC_URL: 'https://erp.example.test' });
  let user: { email: string; password: string };
  let app: TestApp;

  beforeAll(async () => {
    const org = await server.org();
    user = await createUser(server, org.id);
    app = await createApp(server, org.id);
  });

  it('names the session cookie __Host-bp_session, Secure, for the whole host', async () => {
    const page = await server.rest('GET', consentUrl(app));
    const cookie = page.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-bp_session=bpss_/);
    const attributes = cookie.split(/;\s*/).slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it('signs in and consents with that cookie, and reads no other name', async () => {
    const { browser } = await obtainCode(server, app, user);
    const session = browser.cookies.get('__Host-bp_session');
    expect(session).toMatch(/^bpss_/);
    expect(browser.cookies.has('bp_session')).toBe(false);

    // The same token under the plain name (as a subdomain or an http page could plant it) is no session.
    const url = consentUrl(app);
    const planted = await server.rest('GET', url, { headers: { cookie: `bp_session=${session}` } });
    expect(planted.text).toContain('action="/oauth/sign-in"');
    const real = await server.rest('GET', url, { headers: { cookie: `__Host-bp_session=${session}` } });
    expect(real.text).toContain('value="allow"');
  });

  it('sends HSTS on every answer', async () => {
    for (const path of ['/healthz', '/v1/openapi.json', '/nowhere']) {
      expect((await server.rest('GET', path)).headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    }
  });
});
