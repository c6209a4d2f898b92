import 'reflect-metadata';
// What a full load of a dashboard page waits for: the page carries who is
// signed in (the same as /graphql's `viewer`) and, on a list's address, the
// answer to the list's first page (the same as /graphql's to the same operation
// and variables), so a list typed in the address bar asks /graphql nothing; the
// bundle is sent gzipped and cached for good under its hashed name.
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
let hrOfficer: TestUser;

beforeAll(async () => {
  org = await server.org('Dashboard Load Org');
  member = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
  // hr:read without hr:payroll: an employee's salary is a field this user is answered null.
  hrOfficer = await createUser(server, org.id, { role: 'member', scopes: ['hr:read'] });
  const key = await org.key(['crm:write', 'hr:write', 'hr:payroll']);
  for (const [first, last] of [
    ['Ada', 'Lovelace'],
    ['Alan', 'Turing'],
  ]) {
    const contact = await server.gql(
      `mutation { createContact(input: { email: "${first}@load.test", firstName: "${first}", lastName: "${last}" }) { id } }`,
      {},
      { key },
    );
    expect(contact.errors).toBeUndefined();
    const employee = await server.rest('POST', '/v1/hr/employees', {
      key,
      body: {
        firstName: first,
        lastName: last,
        email: `${first}.employee@load.test`,
        startDate: '2026-01-05',
        salary: 6_000_000,
        currency: 'EUR',
      },
    });
    expect(employee.status, employee.text).toBe(201);
  }
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
const hasDataBlock = (html: string, id: string) => html.includes(`<script type="application/json" id="${id}">`);

interface FirstAnswer {
  query: string;
  variables: Record<string, unknown>;
  data: Record<string, { data: Record<string, unknown>[]; pagination: { total: number } }>;
}

/** The page's first answer, and what /graphql answers the same session for the same operation and variables. */
async function firstAnswerAndGraphQL(user: TestUser, address: string) {
  const session = await signIn(user);
  const page = await rawGet(address, { cookie: `bp_session=${session}` });
  expect(page.status).toBe(200);
  const answer = dataBlock(page.body.toString(), 'first-answer') as FirstAnswer;
  const asked = await server.rest('POST', '/graphql', {
    headers: { cookie: `bp_session=${session}`, 'x-csrf-token': tokenFor(session) },
    body: { query: answer.query, variables: answer.variables },
  });
  expect(asked.status, asked.text).toBe(200);
  expect(asked.body.errors).toBeUndefined();
  return { answer, graphql: asked.body.data as FirstAnswer['data'] };
}

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

  it("carries a list's first page as /graphql answers the same operation, variables and session", async () => {
    const { answer, graphql } = await firstAnswerAndGraphQL(member, '/dashboard/crm/contacts?sort=lastName_desc');
    expect(answer.query).toMatch(/^query ContactList\(/);
    expect(answer.variables).toEqual({ page: 1, limit: 50, sort: 'lastName_desc' });
    expect(answer.data).toEqual(graphql);
    expect(answer.data.contacts!.data.map((row) => row.lastName)).toEqual(['Turing', 'Lovelace']);
  });

  it('answers a scoped field null as /graphql does for a viewer without its scope (a salary)', async () => {
    const { answer, graphql } = await firstAnswerAndGraphQL(hrOfficer, '/dashboard/hr/employees');
    expect(answer.data).toEqual(graphql);
    const rows = answer.data.employees!.data;
    expect(rows).toHaveLength(2);
    // Not selected at all (the viewer's catalogue leaves the field out), or selected and null.
    for (const row of rows) expect(row.salary ?? null).toBeNull();
  });

  it('carries no answer where the address is not a list the viewer may read', async () => {
    const session = await signIn(member);
    for (const address of ['/dashboard', '/dashboard/hr/employees', '/dashboard/crm/pipeline']) {
      const page = await rawGet(address, { cookie: `bp_session=${session}` });
      expect(page.status).toBe(200);
      expect(hasDataBlock(page.body.toString(), 'first-answer'), address).toBe(false);
    }
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

  it('asks /graphql nothing for a list typed in the address bar, and again once the list is left', async () => {
    const page = await openDashboard(browser, server.url, member, '/dashboard/crm/contacts');
    const operations: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname !== '/graphql') return;
      const { query } = request.postDataJSON() as { query: string };
      operations.push(/^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? query);
    });
    await page.goto(`${server.url}/dashboard/crm/contacts`);
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    // The frame shows who is signed in, from the page itself.
    expect(await page.locator('header .who').textContent()).toContain(member.email);
    await page.waitForLoadState('networkidle');
    expect(operations).toEqual([]);
    // The page's answer was for the page as loaded: back on the list later, it is asked for afresh.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Deals' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deals' }).waitFor();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('link', { name: 'Alan Turing' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(operations).toEqual(['DealList', 'ContactList']);
    await page.context().close();
  });
});
