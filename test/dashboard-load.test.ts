import 'reflect-metadata';
// What a full load of a dashboard page waits for: the page carries who is
// signed in (the same as /graphql's `viewer`), so a list's address asks
// /graphql once, for the list, and not first for the viewer; the bundle is
// sent gzipped and cached for good under its hashed name.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../src/oauth/session/csrf.js';
import { browserTestsRun, launchBrowser, openDashboard } from './support/browser.js';
import { useServer, type TestOrg } from './support/fixtures.js';
import { createUser, type TestUser } from './support/oauth.js';

const runInBrowser = browserTestsRun('dashboard-load.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let org: TestOrg;
let member: TestUser;

beforeAll(async () => {
  org = await server.org('Dashboard Load Org');
  member = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
});

async function signIn(user: TestUser): Promise<string> {
  const verified = await server.services.sessions.verifyCredentials(user.email, user.password);
  if (!verified) throw new Error('the test user cannot sign in');
  return (await server.services.sessions.start(verified)).token;
}

/** GET with exactly these headers (fetch would add and undo an Accept-Encoding of its own). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(server.url + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const dataBlock = (html: string, id: string): unknown =>
  JSON.parse(new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html)![1]!);

describe('the dashboard page over HTTP', () => {
  it('carries the viewer /graphql answers the session, so the frame needs no request of its own', async () => {
    const session = await signIn(member);
    const page = await rawGet('/dashboard/crm/contacts', { cookie: `bp_session=${session}` });
    expect(page.status).toBe(200);
    const viewer = dataBlock(page.body.toString(), 'viewer');
    const asked = await server.rest('POST', '/graphql', {
      headers: { cookie: `bp_session=${session}`, 'x-csrf-token': tokenFor(session) },
      body: { query: '{ viewer { user { id email name role } organization { id name } scopes credentialType } }' },
    });
    expect(asked.status, asked.text).toBe(200);
    const answered = asked.body.data.viewer as { scopes: string[] };
    // GraphQL spells scopes as enum names (crm_read); the page as the API writes them.
    expect(viewer).toEqual({ ...answered, scopes: answered.scopes.map((scope) => scope.replace('_', ':')) });
    expect(viewer).toMatchObject({
      user: { email: member.email, role: 'member' },
      organization: { id: org.id },
      scopes: ['crm:read', 'crm:write'],
      credentialType: 'session',
    });
  });

  it('sends the bundle gzipped to a browser that takes gzip, the same bytes, cached for good', async () => {
    const session = await signIn(member);
    const html = (await rawGet('/dashboard', { cookie: `bp_session=${session}` })).body.toString();
    const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/app\.[0-9a-f]+\.(?:js|css))"/g)].map(
      (found) => found[1]!,
    );
    expect(assets).toHaveLength(2);
    for (const asset of assets) {
      const plain = await rawGet(asset, {});
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const gzipped = await rawGet(asset, { 'accept-encoding': 'gzip, deflate, br' });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gzipped.headers.vary).toContain('Accept-Encoding');
      expect(gzipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
      // Text compresses: the gzipped script is under a third of itself.
      expect(gzipped.body.length).toBeLessThan(plain.body.length / 3);
    }
  });
});

describe.runIf(runInBrowser)('a full load in chromium', { timeout: 90_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('asks /graphql once for a list typed in the address bar: the list, not first the viewer', async () => {
    const created = await server.gql(
      'mutation { createContact(input: { email: "first.load@load.test", firstName: "First", lastName: "Load" }) { id } }',
      {},
      { key: await org.key(['crm:write']) },
    );
    expect(created.errors).toBeUndefined();
    const page = await openDashboard(browser, server.url, member, '/dashboard/crm/contacts');
    const operations: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname !== '/graphql') return;
      const { query } = request.postDataJSON() as { query: string };
      operations.push(/^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? query);
    });
    await page.goto(`${server.url}/dashboard/crm/contacts`);
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    await page.getByRole('link', { name: 'First Load' }).waitFor();
    // The frame shows who is signed in, from the page itself.
    expect(await page.locator('header .who').textContent()).toContain(member.email);
    await page.waitForLoadState('networkidle');
    expect(operations).toEqual(['ContactList']);
    await page.context().close();
  });
});
