import 'reflect-metadata';
import { readFileSync } from 'node:fs';
// Every change is an event, with who made it (issue 23): each create, PUT,
// DELETE and lifecycle action of every declared resource raises its event, the
// system resources' changes raise theirs, and every event (events API, GraphQL,
// webhook payload) carries `actor`: the API key, the user of a session or of a
// code-flow token, the key of a client_credentials token, or system (the worker,
// the operator). The catalogue, the declarations and the OpenAPI payloads agree,
// and the walkthroughs raise every type of the catalogue.
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/auth/principal.js';
import '../src/graphql/modules.js';
import { declaredResources } from '../src/graphql/kit/declared.js';
import { actionsOf, raisedEvents, type Resource } from '../src/graphql/kit/resource.js';
import { eventSubjects } from '../src/graphql/system/event/payloads.js';
import { cataloguedEvent, EVENT_TYPES } from '../src/events/catalogue.js';
import type { EventType } from '../src/events/event.js';
import { withEventTable } from '../src/events/readme-table.js';
import { SYSTEM_EVENTS } from '../src/events/system-events.js';
import { OVERDUE_INVOICES } from '../src/jobs/notice-jobs.js';
import { tokenFor } from '../src/oauth/session/csrf.js';
import { actionBody, createBody, declared, stepOf, stepsBefore, type RecordMaker } from './support/examples.js';
import { useServer, type TestOrg } from './support/fixtures.js';
import { createApp, createKeyWithSecret, createUser, obtainTokens, tokenRequest } from './support/oauth.js';
import { eventually, useReceivers, useWorker } from './support/receiver.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
const worker = useWorker(server);
const receivers = useReceivers();

interface EventBody {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> & { id: string }; previousAttributes?: Record<string, unknown> };
  actor: { type: string; id: string | null };
}

let org: TestOrg;
/** An admin key (with its id, the actor it is recorded as): every request of the walkthroughs. */
let admin: { id: string; key: string; secret: string };

beforeAll(async () => {
  org = await server.org('Event actors');
  admin = await createKeyWithSecret(server, org.id, ['admin']);
});

async function send(method: string, path: string, body?: unknown, key = admin.key) {
  const res = await server.rest(method, `/v1${path}`, { key, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

/** Every event of the organization (admin reads them all), oldest first. */
async function allEvents(key = admin.key): Promise<EventBody[]> {
  const events: EventBody[] = [];
  for (let page = 1; ; page++) {
    const res = await server.rest('GET', `/v1/events?limit=100&page=${page}`, { key });
    expect(res.status, res.text).toBe(200);
    events.push(...res.body.data);
    if (page >= res.body.pagination.pages) return events;
  }
}

/** The record's history: its events, oldest first. */
async function historyOf(id: string): Promise<EventBody[]> {
  return (await allEvents()).filter((event) => event.data.object.id === id);
}

const byKey = () => ({ type: 'api_key', id: admin.id });

/** The record's events are these types, in order, each made by the admin key. */
async function expectHistory(id: string, types: EventType[]): Promise<EventBody[]> {
  const history = await historyOf(id);
  expect(history.map((event) => event.type)).toEqual(types);
  for (const event of history) expect(event.actor, event.type).toEqual(byKey());
  return history;
}

describe('the event catalogue and the declarations', () => {
  it('every create, PUT, DELETE and action of every declared resource raises an event of the catalogue, read with its area scope', () => {
    const resources = [...declaredResources().values()];
    expect(resources.length).toBeGreaterThanOrEqual(9);
    for (const resource of resources) {
      const name = resource.type.name;
      if (resource.input) expect(resource.events?.created, `${name} create`).toBeDefined();
      if (resource.operations.update) expect(resource.events?.updated, `${name} PUT`).toBeDefined();
      if (resource.operations.delete) expect(resource.events?.deleted, `${name} DELETE`).toBeDefined();
      for (const [action, spec] of Object.entries(actionsOf(resource))) {
        expect(spec.event, `${name}.${action}`).toBeDefined();
      }
      for (const declared of raisedEvents(resource)) {
        expect(cataloguedEvent(declared.type), `${name} raises ${declared.type}`).toEqual({
          type: declared.type,
          description: declared.description,
          scope: resource.area.read,
          area: resource.area.path.slice(1),
          ...(declared.actor && { actor: declared.actor }),
        });
      }
    }
  });

  it("the catalogue is the declarations and the system events, each described with its payload's subject", () => {
    const declared = [...declaredResources().values()].flatMap((resource) => raisedEvents(resource).map((e) => e.type));
    const system = SYSTEM_EVENTS.map((e) => e.type);
    expect([...EVENT_TYPES].sort()).toEqual([...declared, ...system].sort());
    for (const type of system) expect(cataloguedEvent(type), type).toMatchObject({ scope: 'admin', area: 'system' });
    const subjects = eventSubjects();
    for (const type of EVENT_TYPES) {
      expect(subjects.get(type), type).toBeDefined();
      expect(cataloguedEvent(type).description, type).toMatch(/^[A-Z].*\.$/);
    }
    for (const type of [
      'contact.created',
      'deal.stage_changed',
      'invoice.paid',
      'payroll.processed',
      'user.logged_in',
    ]) {
      expect(EVENT_TYPES, 'the specification names it').toContain(type);
    }
  });

  it("the README's event table lists every type with its read scope (npm run docs:events writes it)", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(withEventTable(readme), 'README.md is behind the catalogue: run npm run docs:events').toBe(readme);
    for (const { type, scope } of EVENT_TYPES.map(cataloguedEvent)) {
      expect(readme, type).toMatch(
        new RegExp(`^\\| \`${type.replace('.', '\\.')}\` +\\| .+ \\| \`${scope}\` +\\| .+ \\|$`, 'm'),
      );
    }
  });
});

describe('every change of a declared resource raises its event, made by the API key', () => {
  it('CRM: contacts and deals, created, edited (amount, contact), closed and deleted', async () => {
    const contact = await send('POST', '/crm/contacts', { email: 'ada@example.test', firstName: 'Ada' });
    const other = await send('POST', '/crm/contacts', { email: 'grace@example.test' });
    await send('PUT', `/crm/contacts/${contact.id}`, { company: 'Analytical' });
    const deal = await send('POST', '/crm/deals', {
      title: 'Engines',
      amount: 1000,
      currency: 'EUR',
      contactId: contact.id,
    });
    await send('PUT', `/crm/deals/${deal.id}`, { amount: 2500, contactId: other.id });
    await send('PUT', `/crm/deals/${deal.id}`, { stage: 'won' });
    const closed = await send('GET', `/crm/deals/${deal.id}`);
    expect((await server.rest('DELETE', `/v1/crm/deals/${deal.id}`, { key: admin.key })).status).toBe(204);
    const lastContact = await send('GET', `/crm/contacts/${contact.id}`);
    expect((await server.rest('DELETE', `/v1/crm/contacts/${contact.id}`, { key: admin.key })).status).toBe(204);

    const contactEvents = await expectHistory(contact.id, ['contact.created', 'contact.updated', 'contact.deleted']);
    expect(contactEvents[1]!.data.previousAttributes).toMatchObject({ company: null });
    expect(contactEvents[2]!.data.object).toEqual(lastContact);
    const dealEvents = await expectHistory(deal.id, [
      'deal.created',
      'deal.updated',
      'deal.updated',
      'deal.stage_changed',
      'deal.closed',
      'deal.deleted',
    ]);
    expect(dealEvents[1]!.data.previousAttributes).toMatchObject({ amount: 1000, contactId: contact.id });
    expect(dealEvents[1]!.data.object).toMatchObject({ amount: 2500, contactId: other.id });
    expect(dealEvents[2]!.data.previousAttributes).toMatchObject({ stage: 'lead' });
    expect(dealEvents[5]!.data.object).toEqual(closed);
  });

  it('finance: invoices opened, voided, edited and paid; payments, refunded and allocated; credit notes; expenses through their lifecycle', async () => {
    const contact = await send('POST', '/crm/contacts', { email: 'payer@example.test' });
    const lines = [{ description: 'Consulting', quantity: 1, unitAmount: 10000 }];
    const voided = await send('POST', '/finance/invoices', { contactId: contact.id, currency: 'EUR', lines });
    await send('PUT', `/finance/invoices/${voided.id}`, { notes: 'Thanks' });
    await send('POST', `/finance/invoices/${voided.id}/open`);
    await send('POST', `/finance/invoices/${voided.id}/void`);
    const paid = await send('POST', '/finance/invoices', { contactId: contact.id, currency: 'EUR', lines });
    await send('POST', `/finance/invoices/${paid.id}/open`);
    const payment = await send('POST', '/finance/payments', {
      invoiceId: paid.id,
      amount: paid.total,
      currency: 'EUR',
      method: 'cash',
    });

    const voidedEvents = await expectHistory(voided.id, [
      'invoice.created',
      'invoice.updated',
      'invoice.opened',
      'invoice.voided',
    ]);
    expect(voidedEvents[1]!.data.previousAttributes).toMatchObject({ notes: null });
    expect(voidedEvents[2]!.data.previousAttributes).toMatchObject({ status: 'draft' });
    expect(voidedEvents[3]!.data.previousAttributes).toMatchObject({ status: 'open' });
    expect(voidedEvents[3]!.data.object).toMatchObject({ status: 'void' });
    await expectHistory(paid.id, ['invoice.created', 'invoice.opened', 'invoice.paid']);
    await expectHistory(payment.id, ['payment.received']);

    // Corrections: a credit note on the paid invoice, a refund that reopens it, an unallocated payment that settles it.
    const note = await send('POST', '/finance/credit-notes', { invoiceId: paid.id, reason: 'Returned', amount: 1000 });
    await send('PUT', `/finance/credit-notes/${note.id}`, { reason: 'Returned goods' });
    await send('POST', `/finance/credit-notes/${note.id}/issue`);
    const dropped = await send('POST', '/finance/credit-notes', { invoiceId: paid.id, reason: 'Typo', amount: 1 });
    expect((await server.rest('DELETE', `/v1/finance/credit-notes/${dropped.id}`, { key: admin.key })).status).toBe(
      204,
    );
    await send('POST', `/finance/payments/${payment.id}/refund`, { amount: 2000, reason: 'Goodwill' });
    const loose = await send('POST', '/finance/payments', { amount: 1000, currency: 'EUR', method: 'cash' });
    await send('POST', `/finance/payments/${loose.id}/allocate`, { invoiceId: paid.id });
    const corrected = await expectHistory(paid.id, [
      'invoice.created',
      'invoice.opened',
      'invoice.paid',
      'invoice.reopened',
      'invoice.paid',
    ]);
    expect(corrected[3]!.data.object).toMatchObject({ status: 'open', amountPaid: 8000, amountCredited: 1000 });
    await expectHistory(payment.id, ['payment.received', 'payment.refunded']);
    await expectHistory(loose.id, ['payment.received', 'payment.allocated']);
    await expectHistory(note.id, ['credit_note.created', 'credit_note.updated', 'credit_note.issued']);
    await expectHistory(dropped.id, ['credit_note.created', 'credit_note.deleted']);

    // Open past its due date: the worker's every-minute task (run now) raises invoice.overdue, made by system.
    const dates = { issueDate: '2020-01-01', dueDate: '2020-01-31' };
    const late = await send('POST', '/finance/invoices', { contactId: contact.id, currency: 'EUR', lines, ...dates });
    await send('POST', `/finance/invoices/${late.id}/open`);
    await worker.current().runner.addJob(OVERDUE_INVOICES, {});
    const lateEvents = await eventually(async () => {
      const history = await historyOf(late.id);
      return history.length === 3 && history;
    });
    expect(lateEvents.map((event) => [event.type, event.actor])).toEqual([
      ['invoice.created', byKey()],
      ['invoice.opened', byKey()],
      ['invoice.overdue', { type: 'system', id: null }],
    ]);
    expect(lateEvents[2]!.data).toMatchObject({ object: { overdue: true }, previousAttributes: { overdue: false } });

    const employee = await send('POST', '/hr/employees', {
      firstName: 'Ada',
      lastName: 'Spender',
      email: 'spender@example.test',
    });
    const expense = {
      employeeId: employee.id,
      amount: 100,
      currency: 'EUR',
      category: 'travel',
      incurredOn: '2026-03-14',
    };
    const reimbursed = await send('POST', '/finance/expenses', expense);
    await send('PUT', `/finance/expenses/${reimbursed.id}`, { amount: 120 });
    for (const action of ['submit', 'approve', 'reimburse'])
      await send('POST', `/finance/expenses/${reimbursed.id}/${action}`);
    const rejected = await send('POST', '/finance/expenses', expense);
    await send('POST', `/finance/expenses/${rejected.id}/submit`);
    await send('POST', `/finance/expenses/${rejected.id}/reject`, { reason: 'No receipt' });

    const expenseEvents = await expectHistory(reimbursed.id, [
      'expense.created',
      'expense.updated',
      'expense.submitted',
      'expense.approved',
      'expense.reimbursed',
    ]);
    expect(expenseEvents[1]!.data.previousAttributes).toMatchObject({ amount: 100 });
    await expectHistory(rejected.id, ['expense.created', 'expense.submitted', 'expense.rejected']);
  });

  it('HR: employees, attendance, leave requests and payroll runs, each change and action', async () => {
    const employee = await send('POST', '/hr/employees', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.test',
    });
    await send('PUT', `/hr/employees/${employee.id}`, { jobTitle: 'Rear admiral' });
    // A shift of 2026-01-05 (a clock-out is at most 5 minutes ahead and 24 hours after the clock-in, issue 25).
    const record = await send('POST', '/hr/attendance', { employeeId: employee.id, clockIn: '2026-01-05T08:00:00Z' });
    await send('POST', `/hr/attendance/${record.id}/clock-out`, { clockOut: '2026-01-05T17:00:00.000Z' });
    await send('PUT', `/hr/attendance/${record.id}`, { clockIn: '2026-01-05T07:30:00.000Z' });
    const leave = { employeeId: employee.id, type: 'vacation', from: '2026-07-01', to: '2026-07-03' };
    const approved = await send('POST', '/hr/leave-requests', leave);
    await send('PUT', `/hr/leave-requests/${approved.id}`, { reason: 'Trip' });
    await send('POST', `/hr/leave-requests/${approved.id}/approve`);
    await send('POST', `/hr/leave-requests/${approved.id}/cancel`);
    const rejected = await send('POST', '/hr/leave-requests', { ...leave, from: '2026-08-03', to: '2026-08-04' });
    await send('POST', `/hr/leave-requests/${rejected.id}/reject`, { reason: 'Peak season' });
    const run = await send('POST', '/hr/payroll-runs', { periodStart: '2026-01-01', periodEnd: '2026-01-31' });
    await send('PUT', `/hr/payroll-runs/${run.id}`, { payDate: '2026-02-05' });
    await send('POST', `/hr/payroll-runs/${run.id}/process`);
    // A notice first (an end date after today, 2026-11-27 or later), then an end that has passed (issue 25).
    await send('POST', `/hr/employees/${employee.id}/terminate`, { endDate: '2099-12-31' });
    await send('POST', `/hr/employees/${employee.id}/terminate`, { endDate: '2026-11-01' });
    await send('POST', `/hr/employees/${employee.id}/reinstate`);

    await expectHistory(employee.id, [
      'employee.created',
      'employee.updated',
      'employee.notice_given',
      'employee.terminated',
      'employee.reinstated',
    ]);
    const attendanceEvents = await expectHistory(record.id, [
      'attendance.logged',
      'attendance.logged',
      'attendance.updated',
    ]);
    expect(attendanceEvents[1]!.data.object).toMatchObject({ status: 'closed' });
    await expectHistory(approved.id, ['leave.requested', 'leave.updated', 'leave.approved', 'leave.cancelled']);
    await expectHistory(rejected.id, ['leave.requested', 'leave.rejected']);
    const runEvents = await expectHistory(run.id, ['payroll.created', 'payroll.updated', 'payroll.processed']);
    expect(runEvents[0]!.data.object).toEqual(run);
    expect(runEvents[1]!.data.previousAttributes).toMatchObject({ payDate: '2026-01-31' });
  });
});

describe('system changes raise events, made by their actor', () => {
  it("the organization's settings: changed by an admin, with previousAttributes", async () => {
    const before = await send('GET', '/organization');
    await send('PUT', '/organization', { timeZone: 'Europe/Paris' });
    const [changed] = await expectHistory(org.id, ['organization.updated']);
    expect(changed!.data).toEqual({
      object: { ...before, timeZone: 'Europe/Paris' },
      previousAttributes: { timeZone: 'UTC' },
    });
    await send('PUT', '/organization', { timeZone: 'UTC' });
  });

  it('users, API keys, webhooks and OAuth apps: created, changed, rotated, revoked and deleted', async () => {
    const user = await send('POST', '/users', {
      email: 'member@example.test',
      role: 'member',
      scopes: ['crm:read'],
      password: 'long password',
    });
    await send('PUT', `/users/${user.id}`, { scopes: ['crm:read', 'hr:read'] });
    expect((await server.rest('DELETE', `/v1/users/${user.id}`, { key: admin.key })).status).toBe(204);
    const userEvents = await expectHistory(user.id, ['user.created', 'user.updated', 'user.deleted']);
    expect(userEvents[1]!.data.previousAttributes).toMatchObject({ scopes: ['crm:read'] });

    const key = await send('POST', '/api-keys', { name: 'rotated', scopes: ['crm:read'] });
    const rotated = await send('POST', `/api-keys/${key.id}/rotate`);
    await send('POST', `/api-keys/${rotated.id}/revoke`);
    await expectHistory(key.id, ['api_key.created', 'api_key.revoked']);
    const revokedEvents = await expectHistory(rotated.id, ['api_key.created', 'api_key.revoked']);
    expect(JSON.stringify(revokedEvents)).not.toContain(rotated.secret);

    const target = await receivers();
    const webhook = await send('POST', '/webhooks', { url: target.url, events: ['contact.created'] });
    await send('PUT', `/webhooks/${webhook.id}`, { description: 'Changed' });
    await send('POST', `/webhooks/${webhook.id}/rotate-secret`);
    expect((await server.rest('DELETE', `/v1/webhooks/${webhook.id}`, { key: admin.key })).status).toBe(204);
    const webhookEvents = await expectHistory(webhook.id, [
      'webhook.created',
      'webhook.updated',
      'webhook.secret_rotated',
      'webhook.deleted',
    ]);
    expect(webhookEvents[1]!.data.previousAttributes).toMatchObject({ description: null });
    expect(JSON.stringify(webhookEvents)).not.toContain(webhook.secret);

    const app = await send('POST', '/oauth-apps', {
      name: 'Audited',
      redirectUris: ['https://app.example.test/cb'],
      scopes: ['crm:read'],
    });
    await send('PUT', `/oauth-apps/${app.id}`, { name: 'Audited too' });
    await send('POST', `/oauth-apps/${app.id}/rotate-secret`);
    expect((await server.rest('DELETE', `/v1/oauth-apps/${app.id}`, { key: admin.key })).status).toBe(204);
    const appEvents = await expectHistory(app.id, [
      'oauth_app.created',
      'oauth_app.updated',
      'oauth_app.secret_rotated',
      'oauth_app.deleted',
    ]);
    expect(appEvents[1]!.data.previousAttributes).toMatchObject({ name: 'Audited' });
    expect(JSON.stringify(appEvents)).not.toContain(app.clientSecret);
  });

  it('an export is asked for by its requester (export.created) and completed by the worker (export.completed, system)', async () => {
    const created = await send('POST', '/exports', { resource: 'contacts', format: 'csv' });
    const history = await eventually(async () => {
      const events = await historyOf(created.id);
      return events.length === 2 && events;
    });
    expect(history.map((event) => [event.type, event.actor])).toEqual([
      ['export.created', byKey()],
      ['export.completed', { type: 'system', id: null }],
    ]);
  });

  it("an import's rows are the caller's (contact.created), its end the worker's (import.completed, system)", async () => {
    const posted = await server.rest('POST', '/v1/imports?resource=contacts&format=csv', {
      key: admin.key,
      body: 'email,firstName\nimported-actor@example.test,Imported\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(posted.status, posted.text).toBe(202);
    const [completed] = await eventually(async () => {
      const events = await historyOf(posted.body.id);
      return events.length === 1 && events;
    });
    expect([completed!.type, completed!.actor]).toEqual(['import.completed', { type: 'system', id: null }]);
    const row = (await allEvents()).find((event) => event.data.object.email === 'imported-actor@example.test');
    expect([row?.type, row?.actor]).toEqual(['contact.created', byKey()]);
  });
});

describe('who the actor is', () => {
  /** The actor of the contact.created event of the contact with this email. */
  async function actorOfCreate(email: string) {
    const event = (await allEvents()).find(
      (candidate) => candidate.type === 'contact.created' && candidate.data.object.email === email,
    );
    expect(event, email).toBeDefined();
    return event!.actor;
  }

  it('a signed-in user on /graphql: the user, in the events API and in GraphQL', async () => {
    const user = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
    const verified = await server.services.sessions.verifyCredentials(user.email, user.password);
    const session = (await server.services.sessions.start(verified!)).token;
    const asBrowser = (query: string, variables: Record<string, unknown> = {}) =>
      server.rest('POST', '/graphql', {
        headers: { cookie: `bp_session=${session}`, 'x-csrf-token': tokenFor(session) },
        body: { query, variables },
      });
    const created = await asBrowser(`mutation { createContact(input: { email: "session@example.test" }) { id } }`);
    expect(created.body.errors).toBeUndefined();
    expect(await actorOfCreate('session@example.test')).toEqual({ type: 'user', id: user.id });

    const read = await asBrowser(
      `{ events(type: contact_created, limit: 100) { data { type data actor { type id } } } }`,
    );
    expect(read.body.errors).toBeUndefined();
    const mine = read.body.data.events.data.find(
      (event: { data: { object: { id: string } } }) => event.data.object.id === created.body.data.createContact.id,
    );
    expect(mine.actor).toEqual({ type: 'user', id: user.id });
  });

  it("an OAuth authorization-code token: the user who consented; the user's sign-in itself is the user's", async () => {
    const user = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
    const app = await createApp(server, org.id);
    const tokens = await obtainTokens(server, app, user, { scope: 'crm:read crm:write' });
    await send('POST', '/crm/contacts', { email: 'oauth@example.test' }, tokens.access_token);
    expect(await actorOfCreate('oauth@example.test')).toEqual({ type: 'user', id: user.id });
    const signedIn = (await allEvents()).filter(
      (event) => event.type === 'user.logged_in' && event.data.object.id === user.id,
    );
    expect(signedIn.map((event) => event.actor)).toEqual([{ type: 'user', id: user.id }]);
  });

  it('a client_credentials token: the API key that is its client', async () => {
    const client = await createKeyWithSecret(server, org.id, ['crm:read', 'crm:write']);
    const token = await tokenRequest(
      server,
      { grant_type: 'client_credentials' },
      { basic: [client.key, client.secret] },
    );
    expect(token.status, token.text).toBe(200);
    await send('POST', '/crm/contacts', { email: 'machine@example.test' }, token.body.access_token);
    expect(await actorOfCreate('machine@example.test')).toEqual({ type: 'api_key', id: client.id });
  });

  it('the operator (CLI): system', async () => {
    await server.services.contacts.create(operatorPrincipal(org.id), { email: 'operator@example.test' });
    expect(await actorOfCreate('operator@example.test')).toEqual({ type: 'system', id: null });
  });

  it('a webhook receiver on loopback gets the actor in the signed payload', async () => {
    const target = await receivers();
    await send('POST', '/webhooks', { url: target.url, events: ['contact.created'] });
    const contact = await send('POST', '/crm/contacts', { email: 'delivered@example.test' });
    const [request] = await target.waitFor(1);
    const payload = JSON.parse(request!.body);
    expect(payload).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'contact.created',
      created: expect.any(Number),
      data: { object: contact },
      actor: byKey(),
    });
  });

  it('events written before actors were recorded read as system; an actor of no known kind is refused', async () => {
    const id = `evt_${'0'.repeat(26)}`;
    await server.prisma.$executeRaw`insert into "Event" (id, "organizationId", type, data)
      values (${id}, ${org.id}, 'contact.created', ${JSON.stringify({ object: { id: 'con_old' } })}::jsonb)`;
    expect((await send('GET', `/events/${id}`)).actor).toEqual({ type: 'system', id: null });
    await expect(
      server.prisma.$executeRaw`insert into "Event" (id, "organizationId", type, data, "actorType")
        values (${`evt_${'1'.repeat(26)}`}, ${org.id}, 'contact.created', '{}'::jsonb, 'user')`,
    ).rejects.toThrow(/Event_actor_check/);
  });
});

describe('the OpenAPI document types each event', () => {
  it('Event is a oneOf over the event types with type as discriminator, each with its data.object and actor', async () => {
    const { schemas } = (await server.rest('GET', '/v1/openapi.json')).body.components;
    const event = schemas.Event;
    expect(event.discriminator.propertyName).toBe('type');
    expect(Object.keys(event.discriminator.mapping).sort()).toEqual([...EVENT_TYPES].sort());
    expect(event.oneOf).toHaveLength(EVENT_TYPES.length);
    const variant = (type: string) => {
      const ref: string = event.discriminator.mapping[type];
      expect(event.oneOf).toContainEqual({ $ref: ref });
      return schemas[ref.split('/').pop()!];
    };
    const opened = variant('invoice.opened');
    expect(opened.properties.type).toMatchObject({ const: 'invoice.opened' });
    expect(opened.properties.data.properties.object).toEqual({ $ref: '#/components/schemas/Invoice' });
    expect(opened.properties.actor).toEqual({ $ref: '#/components/schemas/EventActor' });
    expect(variant('contact.deleted').properties.data.properties.object).toEqual({
      $ref: '#/components/schemas/Contact',
    });
    expect(variant('export.completed').properties.data.properties.object).toEqual({
      $ref: '#/components/schemas/Export',
    });
    expect(schemas.EventActor.properties.type.enum).toEqual(['user', 'api_key', 'oauth_app', 'system']);
    expect(schemas.EventPage.properties.data.items).toEqual({ $ref: '#/components/schemas/Event' });
  });
});

// Last, over what every test above wrote in the organization: a declared event
// that no change raises (a rule that stopped raising invoice.paid) is a name
// nothing sends, and so is a system event no service raises.
describe('every declared resource, driven by its examples, raises its events made by the API key', () => {
  let n = 1000;
  const maker: RecordMaker = {
    next: () => ++n,
    make: (resource: Resource, body: Record<string, unknown>) => send('POST', resource.fullPath, body),
    act: async (resource, id, step) => void (await send('POST', `${resource.fullPath}/${id}/${step.path}`, step.body)),
  };
  const create = async (resource: Resource) =>
    (await send('POST', resource.fullPath, await createBody(resource, maker.next(), maker))) as { id: string };
  /** The type of the record's latest event, which the admin key made. */
  const latestEvent = async (id: string) => {
    const history = await historyOf(id);
    expect(history.at(-1)!.actor, history.at(-1)!.type).toEqual(byKey());
    return history.at(-1)!.type;
  };

  it.each(declared().map((resource) => [resource.fullPath, resource] as const))('%s', async (_path, resource) => {
    const { events, operations, examples } = resource;
    const record = await create(resource);
    if (events?.created) expect(await latestEvent(record.id)).toBe(events.created.type);
    if (operations.update && examples?.update) {
      await send('PUT', `${resource.fullPath}/${record.id}`, examples.update);
      expect(raisedEvents(resource).map((event) => event.type)).toContain(await latestEvent(record.id));
    }
    for (const [name, action] of Object.entries(actionsOf(resource))) {
      const acted = await create(resource);
      for (const step of stepsBefore(resource, name)!) await maker.act(resource, acted.id, step);
      const body = await actionBody(resource, name, maker);
      await send('POST', `${resource.fullPath}/${acted.id}/${stepOf(resource, name).path}`, body);
      expect(await latestEvent(acted.id), name).toBe(action.event.type);
    }
    if (operations.delete) {
      const doomed = await create(resource);
      expect((await server.rest('DELETE', `/v1${resource.fullPath}/${doomed.id}`, { key: admin.key })).status).toBe(
        204,
      );
      expect(await latestEvent(doomed.id)).toBe(events!.deleted!.type);
    }
  });
});

describe('the catalogue is what the changes raise', () => {
  it('every event type of the catalogue was raised by the changes above', async () => {
    const raised = new Set((await allEvents()).map((event) => event.type));
    expect(EVENT_TYPES.filter((type) => !raised.has(type))).toEqual([]);
  });
});
