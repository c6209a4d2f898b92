import 'reflect-metadata';
// What the browser dashboard needs of /graphql: the signed-in session as a
// credential, only with its X-CSRF-Token (a forged request never runs), ended
// sessions refused with a message to sign in again, Bearer unchanged; `viewer`;
// a webhook's deliveries, their events, hourly stats and the event catalogue;
// the deal pipeline; all within the caller's organization.
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/events/catalogue.js';
import { checkOperation } from '../src/http/graphql-limits.js';
import { getSchema } from '../src/graphql/schema.js';
import { newId } from '../src/ids.js';
import { operatorPrincipal } from '../src/auth/principal.js';
import { tokenFor } from '../src/oauth/session/csrf.js';
import { useServer, type GraphQLResponse, type TestOrg } from './support/fixtures.js';
import { Browser, consentUrl, createApp, createUser, formOf, type TestUser } from './support/oauth.js';
import { eventually, useReceivers, useWorker } from './support/receiver.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
useWorker(server);
const receiver = useReceivers();

let org: TestOrg;
let adminKey: string;
let member: TestUser;
let admin: TestUser;

beforeAll(async () => {
  org = await server.org('Dashboard Org');
  adminKey = await org.key(['admin']);
  member = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
  admin = await createUser(server, org.id, { role: 'admin' });
});

/** A signed-in browser's session cookie value, as sign-in starts it. */
async function signIn(user: TestUser): Promise<string> {
  const verified = await server.services.sessions.verifyCredentials(user.email, user.password);
  if (!verified) throw new Error('the test user cannot sign in');
  return (await server.services.sessions.start(verified)).token;
}

interface SessionRequest {
  /** The X-CSRF-Token to send; undefined: the cookie's own token; null: none. */
  csrf?: string | null;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
}

/** /graphql as the dashboard calls it: the session cookie, and its CSRF token in X-CSRF-Token. */
async function asBrowser(
  session: string,
  query: string,
  variables: Record<string, unknown> = {},
  { csrf, method = 'POST', headers = {} }: SessionRequest = {},
): Promise<GraphQLResponse> {
  const token = csrf === undefined ? tokenFor(session) : csrf;
  const sent: Record<string, string> = { cookie: `bp_session=${session}`, ...headers };
  if (token !== null) sent['x-csrf-token'] = token;
  const path =
    method === 'GET' ? `/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}` : '/graphql';
  const res = await server.rest(method, path, {
    headers: sent,
    ...(method === 'POST' && { body: { query, variables } }),
  });
  return { ...res, data: res.body?.data, errors: res.body?.errors };
}

const CREATE_CONTACT = `mutation ($email: String!) { createContact(input: { email: $email }) { id email } }`;
const VIEWER = `{ viewer { credentialType scopes user { id email role scopes } organization { id name } } }`;

const uniqueEmail = () => `c-${Math.random().toString(36).slice(2)}@example.test`;
async function contactsWith(email: string) {
  const [{ n }] = await server.prisma.$queryRaw<[{ n: number }]>`
    select count(*)::int as n from "Contact" where email = ${email}`;
  return n;
}

describe('session authentication on /graphql', () => {
  it('refuses a cross-site POST carrying only the session cookie: 403, and the mutation does not happen', async () => {
    const session = await signIn(member);
    const email = uniqueEmail();
    const res = await asBrowser(session, CREATE_CONTACT, { email }, { csrf: null });
    expect(res.status, res.text).toBe(403);
    expect(res.body).toEqual({
      errors: [
        {
          message: expect.stringContaining('X-CSRF-Token'),
          extensions: { code: 'FORBIDDEN', field: 'X-CSRF-Token' },
        },
      ],
    });
    expect(await contactsWith(email)).toBe(0);
  });

  it('refuses a wrong token, another session’s token, and a GET without the token alike', async () => {
    const session = await signIn(member);
    const other = await signIn(admin);
    const email = uniqueEmail();
    for (const csrf of ['', 'x'.repeat(43), tokenFor(other)]) {
      const res = await asBrowser(session, CREATE_CONTACT, { email }, { csrf });
      expect(res.status, csrf).toBe(403);
      expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const get = await asBrowser(session, VIEWER, {}, { csrf: null, method: 'GET' });
    expect(get.status).toBe(403);
    expect(get.errors?.[0]?.message).toContain('X-CSRF-Token');
    expect(get.data).toBeUndefined();
    // Refused even for what needs no credential: nothing runs.
    const typename = await asBrowser(session, '{ __typename }', {}, { csrf: null });
    expect(typename.status).toBe(403);
    expect(await contactsWith(email)).toBe(0);
  });

  it('runs the same mutation with the token, as the session’s user, spending a per-user budget', async () => {
    const session = await signIn(member);
    const email = uniqueEmail();
    const res = await asBrowser(session, CREATE_CONTACT, { email });
    expect(res.status, res.text).toBe(200);
    expect(res.errors).toBeUndefined();
    expect(res.data.createContact.email).toBe(email);
    expect(await contactsWith(email)).toBe(1);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit-limit')).toBe('1000000');
    // GET works too, for queries.
    const get = await asBrowser(session, VIEWER, {}, { method: 'GET' });
    expect(get.status, get.text).toBe(200);
    expect(get.data.viewer.credentialType).toBe('session');
  });

  it('raises no user.logged_in for requests made with a session (only signing in does)', async () => {
    const logins = () => server.prisma.event.count({ where: { organizationId: org.id, type: 'user.logged_in' } });
    const session = await signIn(member);
    const before = await logins();
    for (let i = 0; i < 3; i++) expect((await asBrowser(session, VIEWER)).status).toBe(200);
    expect(await logins()).toBe(before);
  });

  it('holds the user’s current scopes: a member without crm:write is refused the mutation (FORBIDDEN)', async () => {
    const reader = await createUser(server, org.id, { role: 'member', scopes: ['crm:read'] });
    const session = await signIn(reader);
    const email = uniqueEmail();
    const res = await asBrowser(session, CREATE_CONTACT, { email });
    expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(res.errors?.[0]?.message).toContain('crm:write');
    expect(await contactsWith(email)).toBe(0);
  });

  it('answers 401 "session has expired" for a signed-out, idle, role-changed or deleted user’s session', async () => {
    const expectExpired = async (session: string, why: string) => {
      const res = await asBrowser(session, VIEWER);
      expect(res.status, why).toBe(401);
      expect(res.body, why).toEqual({
        errors: [
          {
            message: 'Your session has expired or ended: sign in again',
            extensions: { code: 'UNAUTHORIZED' },
          },
        ],
      });
    };
    const signedOut = await signIn(member);
    expect((await asBrowser(signedOut, VIEWER)).status).toBe(200);
    await server.services.sessions.end(signedOut);
    await expectExpired(signedOut, 'signed out');

    const idle = await signIn(member);
    await server.prisma.session.updateMany({
      where: { userId: member.id, lastSeenAt: { gte: new Date(Date.now() - 60_000) } },
      data: { lastSeenAt: new Date(Date.now() - 24 * 60 * 60 * 1000) },
    });
    await expectExpired(idle, 'idle');

    const demoted = await createUser(server, org.id, { role: 'admin' });
    const demotedSession = await signIn(demoted);
    expect((await asBrowser(demotedSession, VIEWER)).data.viewer.scopes).toEqual(['admin']);
    await server.services.users.update(operatorPrincipal(org.id), demoted.id, { role: 'member', scopes: ['hr:read'] });
    await expectExpired(demotedSession, 'role changed');

    const removed = await createUser(server, org.id, { role: 'member', scopes: ['crm:read'] });
    const removedSession = await signIn(removed);
    expect((await asBrowser(removedSession, VIEWER)).status).toBe(200);
    await server.services.users.delete(operatorPrincipal(org.id), removed.id);
    await expectExpired(removedSession, 'user deleted');

    // A cookie that never was a session (a browser that only saw the sign-in page).
    await expectExpired(`bpss_${'a'.repeat(43)}`, 'never signed in');
  });

  it('keeps Bearer as it was: it wins over a cookie, which then needs no token', async () => {
    const session = await signIn(member);
    const res = await asBrowser(session, VIEWER, {}, { csrf: null, headers: { authorization: `Bearer ${adminKey}` } });
    expect(res.status, res.text).toBe(200);
    expect(res.data.viewer.credentialType).toBe('api_key');
    const bad = await asBrowser(session, VIEWER, {}, { headers: { authorization: 'Bearer nope' } });
    expect(bad.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    const plain = await server.gql(VIEWER, {}, { key: adminKey });
    expect(plain.data.viewer.credentialType).toBe('api_key');
  });

  it('is /graphql only: /v1 answers 401 to a session cookie with its token', async () => {
    const session = await signIn(member);
    const res = await server.rest('GET', '/v1/crm/contacts', {
      headers: { cookie: `bp_session=${session}`, 'x-csrf-token': tokenFor(session) },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('works with the cookie and the token of a real sign-in page', async () => {
    const app = await createApp(server, org.id);
    const browser = new Browser(server.url);
    const signInPage = await browser.get(consentUrl(app));
    const signedIn = await browser.signIn(signInPage, member);
    expect(signedIn.status, signedIn.html).toBe(303);
    // The page after sign-in carries the token for the new cookie, as the dashboard's meta tag will.
    const consent = await browser.get(signedIn.location!);
    const csrf = formOf(consent.html).fields.csrf_token!;
    const session = browser.cookies.get('bp_session')!;
    const res = await asBrowser(session, VIEWER, {}, { csrf });
    expect(res.status, res.text).toBe(200);
    expect(res.data.viewer.user.email).toBe(member.email);
  });
});

describe('viewer', () => {
  it('shows a member session’s user, organization and scopes', async () => {
    const res = await asBrowser(await signIn(member), VIEWER);
    expect(res.data.viewer).toEqual({
      credentialType: 'session',
      // The Scope enum's names (kit/enum-names.ts): crm:read is crm_read in GraphQL.
      scopes: ['crm_read', 'crm_write'],
      user: { id: member.id, email: member.email, role: 'member', scopes: ['crm_read', 'crm_write'] },
      organization: { id: org.id, name: 'Dashboard Org' },
    });
    expect((await asBrowser(await signIn(admin), VIEWER)).data.viewer.scopes).toEqual(['admin']);
  });

  it('shows an operator’s API key without a user, and a user’s key with its creator and bounded scopes', async () => {
    const keyRes = await server.gql(VIEWER, {}, { key: await org.key(['crm:read', 'hr:read']) });
    expect(keyRes.data.viewer).toEqual({
      credentialType: 'api_key',
      scopes: ['crm_read', 'hr_read'],
      user: null,
      organization: { id: org.id, name: 'Dashboard Org' },
    });
    // An admin signed in to the dashboard makes a key: the key's creator is that user.
    const session = await signIn(admin);
    const made = await asBrowser(
      session,
      `mutation { createApiKey(input: { name: "mine", scopes: [crm_read] }) { key } }`,
    );
    expect(made.errors, made.text).toBeUndefined();
    const mine = await server.gql(VIEWER, {}, { key: made.data.createApiKey.key });
    expect(mine.data.viewer.user.id).toBe(admin.id);
    expect(mine.data.viewer.scopes).toEqual(['crm_read']);
  });

  it('needs a credential', async () => {
    const res = await server.gql(VIEWER);
    expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });
});

describe('webhooks for the dashboard', () => {
  let webhookId: string;
  /** Delivery rows written directly, newest last: [createdAt offset in minutes, status, with a kept event]. */
  const rows: [number, 'succeeded' | 'failed', boolean][] = [
    [-5 * 60 - 10, 'failed', true],
    [-3 * 60, 'succeeded', true],
    [-60, 'failed', false],
    [-59, 'succeeded', true],
    [-1, 'succeeded', true],
    [-30 * 60, 'succeeded', true],
  ];
  const deliveryIds: string[] = [];
  const eventIds: string[] = [];

  beforeAll(async () => {
    const created = await server.gql(
      // Subscribed to what no test here raises: the only attempts are the rows written below.
      `mutation ($url: String!) { createWebhook(input: { url: $url, events: [expense_rejected] }) { id } }`,
      { url: 'http://127.0.0.1:9/never' },
      { key: adminKey },
    );
    expect(created.errors, created.text).toBeUndefined();
    webhookId = created.data.createWebhook.id;
    for (const [minutes, status, kept] of rows) {
      const at = new Date(Date.now() + minutes * 60_000);
      const eventId = newId('event');
      if (kept) {
        await server.prisma.event.create({
          data: { id: eventId, organizationId: org.id, type: 'leave.cancelled', data: { object: { n: minutes } } },
        });
      }
      const id = newId('webhookDelivery');
      await server.prisma.webhookDelivery.create({
        data: {
          id,
          organizationId: org.id,
          webhookId,
          eventId,
          eventType: 'leave.cancelled',
          attempt: 1,
          trigger: 'event',
          status,
          statusCode: status === 'succeeded' ? 200 : 500,
          durationMs: 12,
          createdAt: at,
        },
      });
      deliveryIds.push(id);
      eventIds.push(eventId);
    }
  });

  const DELIVERIES = `query ($id: ID!, $page: Int, $limit: Int, $status: WebhookDeliveryStatus) {
    webhook(id: $id) { id deliveries(page: $page, limit: $limit, status: $status) {
      data { id status createdAt event { id type created data } }
      pagination { page limit total pages } } } }`;

  it('Webhook.deliveries pages newest first, filters by status, and carries each event (null once pruned)', async () => {
    const first = await asBrowser(await signIn(admin), DELIVERIES, { id: webhookId, limit: 2 });
    expect(first.errors, first.text).toBeUndefined();
    const page = first.data.webhook.deliveries;
    expect(page.pagination).toEqual({ page: 1, limit: 2, total: 6, pages: 3 });
    // Newest first: -1 min, then -59 min.
    expect(page.data.map((d: { id: string }) => d.id)).toEqual([deliveryIds[4], deliveryIds[3]]);
    expect(page.data[0].event).toMatchObject({ id: eventIds[4], type: 'leave_cancelled', data: { object: { n: -1 } } });

    const second = await server.gql(DELIVERIES, { id: webhookId, limit: 2, page: 2 }, { key: adminKey });
    expect(second.data.webhook.deliveries.data.map((d: { id: string }) => d.id)).toEqual([
      deliveryIds[2],
      deliveryIds[1],
    ]);
    expect(second.data.webhook.deliveries.data[0].event).toBeNull();

    const failed = await server.gql(DELIVERIES, { id: webhookId, status: 'failed' }, { key: adminKey });
    // The default page of every relation list (issue 23: they all page the same way).
    expect(failed.data.webhook.deliveries.pagination).toEqual({ page: 1, limit: 50, total: 2, pages: 1 });
    expect(failed.data.webhook.deliveries.data.map((d: { status: string }) => d.status)).toEqual(['failed', 'failed']);
  });

  it('refuses an out-of-range page size with VALIDATION_ERROR naming it', async () => {
    const res = await server.gql(DELIVERIES, { id: webhookId, limit: 101 }, { key: adminKey });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
  });

  it('shows a real test delivery with its webhook.test event', async () => {
    const target = await receiver();
    const made = await server.gql(
      `mutation ($url: String!) { createWebhook(input: { url: $url, events: [expense_rejected] }) { id } }`,
      { url: target.url },
      { key: adminKey },
    );
    const id = made.data.createWebhook.id;
    const sent = await server.gql(
      `mutation ($id: ID!) { testWebhook(id: $id) { eventIds } }`,
      { id },
      { key: adminKey },
    );
    const [eventId] = sent.data.testWebhook.eventIds;
    const delivered = await eventually(async () => {
      const res = await server.gql(DELIVERIES, { id }, { key: adminKey });
      return res.data.webhook.deliveries.data[0];
    });
    expect(delivered.status).toBe('succeeded');
    expect(delivered.event).toMatchObject({ id: eventId, type: 'webhook_test' });
  });

  const STATS = `query ($id: ID!, $hours: Int) { webhookDeliveryStats(webhookId: $id, hours: $hours) { hour succeeded failed } }`;

  it('webhookDeliveryStats: one zero-filled row per hour, oldest first, counted per status', async () => {
    const res = await asBrowser(await signIn(admin), STATS, { id: webhookId });
    expect(res.errors, res.text).toBeUndefined();
    const hours = res.data.webhookDeliveryStats as { hour: string; succeeded: number; failed: number }[];
    expect(hours).toHaveLength(24);
    const hourMs = 60 * 60 * 1000;
    const current = Math.floor(Date.now() / hourMs) * hourMs;
    hours.forEach((row, i) => expect(Date.parse(row.hour)).toBe(current - (23 - i) * hourMs));
    // What each hour should hold, from the rows written (the one 30 hours ago is outside).
    const expected = hours.map(() => ({ succeeded: 0, failed: 0 }));
    const now = Date.now();
    for (const [minutes, status] of rows) {
      const index = 23 - (current - Math.floor((now + minutes * 60_000) / hourMs) * hourMs) / hourMs;
      if (index >= 0) expected[index]![status] += 1;
    }
    expect(hours.map(({ succeeded, failed }) => ({ succeeded, failed }))).toEqual(expected);
    expect(expected.reduce((sum, hour) => sum + hour.succeeded + hour.failed, 0)).toBe(5);

    const one = await server.gql(STATS, { id: webhookId, hours: 1 }, { key: adminKey });
    expect(one.data.webhookDeliveryStats).toHaveLength(1);
    const week = await server.gql(STATS, { id: webhookId, hours: 168 }, { key: adminKey });
    expect(week.data.webhookDeliveryStats).toHaveLength(168);
    expect(
      week.data.webhookDeliveryStats.reduce((sum: number, hour: { succeeded: number }) => sum + hour.succeeded, 0),
    ).toBe(4);
  });

  it('webhookDeliveryStats refuses hours outside 1..168 with VALIDATION_ERROR naming hours', async () => {
    for (const hours of [0, 169, -1]) {
      const res = await server.gql(STATS, { id: webhookId, hours }, { key: adminKey });
      expect(res.errors?.[0]?.extensions, String(hours)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'hours' });
    }
  });

  it('is admin-only and within the organization: another org’s webhook is NOT_FOUND', async () => {
    const asMember = await asBrowser(await signIn(member), STATS, { id: webhookId });
    expect(asMember.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const other = await server.org();
    const otherKey = await other.key(['admin']);
    for (const query of [STATS, DELIVERIES, `query ($id: ID!) { webhook(id: $id) { id } }`]) {
      const res = await server.gql(query, { id: webhookId }, { key: otherKey });
      expect(res.errors?.[0]?.extensions?.code, query).toBe('NOT_FOUND');
    }
  });

  it('webhookEventTypes lists every type with its area and description', async () => {
    const res = await asBrowser(await signIn(admin), `{ webhookEventTypes { type area description } }`);
    expect(res.errors, res.text).toBeUndefined();
    const types = res.data.webhookEventTypes as { type: string; area: string; description: string }[];
    expect(types.map((t) => t.type)).toEqual(EVENT_TYPES.map((type) => type.replace(/\./g, '_')));
    expect(types.find((t) => t.type === 'deal_closed')).toMatchObject({ area: 'crm' });
    expect(types.find((t) => t.type === 'payroll_processed')).toMatchObject({ area: 'hr' });
    expect(types.find((t) => t.type === 'invoice_paid')).toMatchObject({ area: 'finance' });
    expect(types.find((t) => t.type === 'user_logged_in')).toMatchObject({ area: 'system' });
    for (const type of types) expect(type.description, type.type).toMatch(/^[A-Z].+\.$/);
  });

  it('fits the cost limits with a reasonable dashboard selection', async () => {
    const schema = await getSchema();
    const source = `{ webhooks(limit: 20) { data { id url status deliveries(limit: 20) {
      data { id eventType attempt trigger status statusCode durationMs error createdAt event { id type created data } }
      pagination { total pages } } } } }`;
    const { refusals, cost } = checkOperation(schema, source, server.config.graphqlLimits);
    expect(refusals).toEqual([]);
    expect(cost).toBeLessThan(server.config.graphqlLimits.maxCost);
    const res = await server.gql(source, {}, { key: adminKey });
    expect(res.errors, res.text).toBeUndefined();
  });
});

describe('dealPipeline', () => {
  const PIPELINE = `{ dealPipeline { stage count amounts { currency amount } } }`;

  it('lists every stage in order with counts and per-currency sums, this organization only', async () => {
    const pipelineOrg = await server.org();
    const key = await pipelineOrg.key(['crm:read', 'crm:write']);
    const deals: [string, number, string][] = [
      ['lead', 1000, 'USD'],
      ['lead', 250, 'USD'],
      ['lead', 700, 'EUR'],
      ['proposal', 5, 'USD'],
      ['won', 9_000_000_000_000, 'USD'],
      ['won', 1, 'USD'],
    ];
    for (const [stage, amount, currency] of deals) {
      const res = await server.gql(
        `mutation ($input: CreateDealInput!) { createDeal(input: $input) { id } }`,
        { input: { title: `${stage} deal`, amount, currency, stage: stage === 'won' ? 'lead' : stage } },
        { key },
      );
      expect(res.errors, res.text).toBeUndefined();
      if (stage === 'won') {
        const moved = await server.gql(
          `mutation ($id: ID!) { updateDeal(id: $id, input: { stage: won }) { stage } }`,
          { id: res.data.createDeal.id },
          { key },
        );
        expect(moved.errors, moved.text).toBeUndefined();
      }
    }
    // Another organization's deals count for it alone.
    const noise = await org.key(['crm:write']);
    await server.gql(
      `mutation { createDeal(input: { title: "elsewhere", amount: 77, currency: "USD" }) { id } }`,
      {},
      { key: noise },
    );

    const res = await server.gql(PIPELINE, {}, { key });
    expect(res.errors, res.text).toBeUndefined();
    expect(res.data.dealPipeline).toEqual([
      {
        stage: 'lead',
        count: 3,
        amounts: [
          { currency: 'EUR', amount: 700 },
          { currency: 'USD', amount: 1250 },
        ],
      },
      { stage: 'qualified', count: 0, amounts: [] },
      { stage: 'proposal', count: 1, amounts: [{ currency: 'USD', amount: 5 }] },
      { stage: 'negotiation', count: 0, amounts: [] },
      { stage: 'won', count: 2, amounts: [{ currency: 'USD', amount: 9_000_000_000_001 }] },
      { stage: 'lost', count: 0, amounts: [] },
    ]);
  });

  it('needs crm:read', async () => {
    const res = await server.gql(PIPELINE, {}, { key: await org.key(['hr:read']) });
    expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const session = await asBrowser(await signIn(member), PIPELINE);
    expect(session.errors, session.text).toBeUndefined();
  });
});

describe('the session’s rate-limit budget', () => {
  const small = useServer({ RATE_LIMIT_MAX: '3' });

  it('is the user’s: a second sign-in of the same user buys no more requests', async () => {
    const other = await small.org();
    const user = await createUser(small, other.id, { role: 'member', scopes: ['crm:read'] });
    const start = async () => {
      const verified = await small.services.sessions.verifyCredentials(user.email, user.password);
      return (await small.services.sessions.start(verified!)).token;
    };
    const [first, second] = [await start(), await start()];
    const send = (session: string) =>
      small.rest('POST', '/graphql', {
        headers: { cookie: `bp_session=${session}`, 'x-csrf-token': tokenFor(session) },
        body: { query: '{ viewer { credentialType } }' },
      });
    for (let i = 0; i < 3; i++) expect((await send(i % 2 ? second : first)).status).toBe(200);
    const refused = await send(second);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});
