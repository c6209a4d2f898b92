import 'reflect-metadata';
// Salaries are private (issue 25): an employee's `salary` and `currency` need
// hr:payroll (admin implies it) on every transport. Without it they are absent
// from REST answers, null in GraphQL, out of GET /v1/events and exports, and out
// of the data a webhook delivers when its scopes lack hr:payroll (checked with a
// real receiver and the worker); setting them is 403.
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/auth/principal.js';
import { finishedJob } from './support/file-jobs.js';
import { useServer, type TestOrg } from './support/fixtures.js';
import { authorizeUrl, Browser, createApp, createUser } from './support/oauth.js';
import { eventually, sleep, useReceivers, useWorker } from './support/receiver.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
useWorker(server);
const receiver = useReceivers();

type Body = Record<string, unknown>;

let org: TestOrg;
/** An HR officer who manages people but not pay. */
let hr: string;
/** Reads HR, nothing more. */
let reader: string;
/** Pay: reads and sets salaries. */
let payroll: string;
let admin: string;
let counter = 0;

beforeAll(async () => {
  org = await server.org();
  hr = await org.key(['hr:read', 'hr:write']);
  reader = await org.key(['hr:read']);
  payroll = await org.key(['hr:read', 'hr:write', 'hr:payroll']);
  admin = await org.key(['admin']);
});

async function hire(body: Body = {}, key = payroll): Promise<Body & { id: string }> {
  const n = ++counter;
  const res = await server.rest('POST', '/v1/hr/employees', {
    key,
    body: { firstName: 'Grace', lastName: `Hopper ${n}`, email: `pay-${n}@example.test`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const SALARIED = { salary: 9_600_000, currency: 'USD' };

describe('REST', () => {
  it('answers without salary and currency (the keys absent) to hr:read or hr:write without hr:payroll', async () => {
    const employee = await hire(SALARIED);
    expect(employee).toMatchObject(SALARIED);
    for (const key of [hr, reader]) {
      const one = await server.rest('GET', `/v1/hr/employees/${employee.id}`, { key });
      expect(one.status, one.text).toBe(200);
      expect(Object.keys(one.body)).not.toContain('salary');
      expect(Object.keys(one.body)).not.toContain('currency');
      const { salary: _salary, currency: _currency, ...rest } = employee;
      expect(one.body).toEqual(rest);
      const list = await server.rest('GET', `/v1/hr/employees?limit=100`, { key });
      for (const item of list.body.data) {
        expect(item).not.toHaveProperty('salary');
        expect(item).not.toHaveProperty('currency');
      }
      expect(list.text).not.toContain('9600000');
    }
    for (const key of [payroll, admin]) {
      const one = await server.rest('GET', `/v1/hr/employees/${employee.id}`, { key });
      expect(one.body).toEqual(employee);
    }
    // Its own answer to a change by hr:write leaves them out too.
    const changed = await server.rest('PUT', `/v1/hr/employees/${employee.id}`, { key: hr, body: { jobTitle: 'x' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).not.toHaveProperty('salary');
  });

  it('refuses a salary or currency from a key without hr:payroll (403 naming the field), writing nothing', async () => {
    const refused = await server.rest('POST', '/v1/hr/employees', {
      key: hr,
      body: { firstName: 'A', lastName: 'B', email: `no-pay-${++counter}@example.test`, ...SALARIED },
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', field: 'salary' });
    expect(refused.body.error.message).toContain('hr:payroll');
    const listed = await server.rest('GET', `/v1/hr/employees?q=no-pay-${counter}`, { key: hr });
    expect(listed.body.data).toEqual([]);

    const employee = await hire(SALARIED);
    for (const body of [{ salary: 1 }, { salary: null }, { currency: 'EUR' }, { jobTitle: 'x', salary: 9_600_000 }]) {
      const res = await server.rest('PUT', `/v1/hr/employees/${employee.id}`, { key: hr, body });
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.body.error.field).toBe(Object.keys(body).includes('salary') ? 'salary' : 'currency');
    }
    expect((await server.rest('GET', `/v1/hr/employees/${employee.id}`, { key: payroll })).body).toEqual(employee);
    // With hr:payroll it changes.
    const raised = await server.rest('PUT', `/v1/hr/employees/${employee.id}`, {
      key: payroll,
      body: { salary: 10_200_000 },
    });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body.salary).toBe(10_200_000);
  });

  it('documents salary and currency as optional, saying which scope they need', async () => {
    const doc = (await server.rest('GET', '/v1/openapi.json')).body;
    const employee = doc.components.schemas.Employee;
    expect(employee.required).not.toContain('salary');
    expect(employee.required).not.toContain('currency');
    expect(employee.required).toContain('firstName');
    expect(employee.properties.salary.description).toContain('`hr:payroll`');
    expect(employee.properties.currency.description).toContain('`hr:payroll`');
  });
});

describe('GraphQL', () => {
  const QUERY = `query ($id: ID!) { employee(id: $id) { id salary currency } employees(limit: 100) { data { salary } } }`;

  it('answers null for salary and currency without hr:payroll, the values with it, through relations too', async () => {
    const employee = await hire(SALARIED);
    const hidden = await server.gql(QUERY, { id: employee.id }, { key: reader });
    expect(hidden.errors, hidden.text).toBeUndefined();
    expect(hidden.data.employee).toEqual({ id: employee.id, salary: null, currency: null });
    expect(hidden.data.employees.data.every((e: Body) => e.salary === null)).toBe(true);
    const shown = await server.gql(QUERY, { id: employee.id }, { key: payroll });
    expect(shown.data.employee).toEqual({ id: employee.id, ...SALARIED });

    const leave = await server.rest('POST', '/v1/hr/leave-requests', {
      key: hr,
      body: { employeeId: employee.id, type: 'vacation', from: '2026-08-03', to: '2026-08-04' },
    });
    const viaLeave = `query ($id: ID!) { leaveRequest(id: $id) { employee { salary manager { salary } } } }`;
    const related = await server.gql(viaLeave, { id: leave.body.id }, { key: reader });
    expect(related.errors, related.text).toBeUndefined();
    expect(related.data.leaveRequest.employee).toEqual({ salary: null, manager: null });
  });

  it('refuses a mutation setting a salary without hr:payroll, naming the field', async () => {
    const employee = await hire();
    const res = await server.gql(
      `mutation ($id: ID!) { updateEmployee(id: $id, input: { salary: 5000000, currency: "EUR" }) { id } }`,
      { id: employee.id },
      { key: hr },
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', field: 'salary' });
    const schema = await server.gql(
      `{ __type(name: "Employee") { fields { name description type { kind } } } }`,
      {},
      { key: reader },
    );
    const salary = schema.data.__type.fields.find((f: Body) => f.name === 'salary');
    expect(salary.type.kind).toBe('SCALAR'); // nullable
    expect(salary.description).toContain('null in GraphQL');
  });
});

describe('events', () => {
  it('GET /v1/events leaves salary and currency out of data.object and previousAttributes without hr:payroll', async () => {
    const employee = await hire(SALARIED);
    const raised = await server.rest('PUT', `/v1/hr/employees/${employee.id}`, {
      key: payroll,
      body: { salary: 12_000_000, jobTitle: 'Lead' },
    });
    expect(raised.status, raised.text).toBe(200);
    const history = async (key: string) => {
      const res = await server.rest('GET', `/v1/events?objectId=${employee.id}`, { key });
      expect(res.status, res.text).toBe(200);
      return res.body.data as { type: string; data: { object: Body; previousAttributes?: Body } }[];
    };
    const hidden = await history(reader);
    expect(hidden.map((event) => event.type)).toEqual(['employee.created', 'employee.updated']);
    for (const event of hidden) {
      expect(event.data.object).not.toHaveProperty('salary');
      expect(event.data.object).not.toHaveProperty('currency');
    }
    expect(hidden[1]!.data.previousAttributes).toEqual({ jobTitle: null, updatedAt: employee.updatedAt });
    const one = await server.rest('GET', `/v1/events/${(hidden[1] as unknown as { id: string }).id}`, { key: reader });
    expect(one.body.data).toEqual(hidden[1]!.data);

    const shown = await history(payroll);
    expect(shown[0]!.data.object).toEqual(employee);
    expect(shown[1]!.data.previousAttributes).toEqual({
      salary: 9_600_000,
      jobTitle: null,
      updatedAt: employee.updatedAt,
    });
    expect(shown[1]!.data.object).toEqual(raised.body);

    const gql = await server.gql(
      `query ($id: ID) { events(objectId: $id) { data { type data } } }`,
      { id: employee.id },
      { key: reader },
    );
    expect(gql.errors, gql.text).toBeUndefined();
    expect(gql.data.events.data.map((event: Body) => event.data)).toEqual(hidden.map((event) => event.data));
  });

  it('delivers employee.updated without salary to a webhook whose scopes lack hr:payroll, with it otherwise', async () => {
    const withoutPay = await receiver();
    const withPay = await receiver();
    const narrow = await server.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: withoutPay.url, events: ['employee.updated'], scopes: ['hr:read'] },
    });
    expect(narrow.status, narrow.text).toBe(201);
    expect(narrow.body.scopes).toEqual(['hr:read']);
    // Created by an admin key without saying: the key's scopes, which read salaries.
    const full = await server.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: withPay.url, events: ['employee.updated'] },
    });
    expect(full.body.scopes).toEqual(['admin']);

    const employee = await hire(SALARIED);
    const raised = await server.rest('PUT', `/v1/hr/employees/${employee.id}`, {
      key: payroll,
      body: { salary: 10_000_000 },
    });
    expect(raised.status, raised.text).toBe(200);

    const [narrowDelivery] = await withoutPay.waitFor(1);
    const [fullDelivery] = await withPay.waitFor(1);
    const hidden = JSON.parse(narrowDelivery!.body);
    const shown = JSON.parse(fullDelivery!.body);
    expect(hidden.type).toBe('employee.updated');
    expect(hidden.id).toBe(shown.id);
    const { salary: _salary, currency: _currency, ...withoutSalary } = raised.body;
    expect(hidden.data).toEqual({ object: withoutSalary, previousAttributes: { updatedAt: employee.updatedAt } });
    expect(narrowDelivery!.body).not.toContain('9600000');
    expect(narrowDelivery!.body).not.toContain('10000000');
    expect(shown.data).toEqual({
      object: raised.body,
      previousAttributes: { salary: 9_600_000, updatedAt: employee.updatedAt },
    });
    await sleep(200);
    expect(withoutPay.received).toHaveLength(1);

    // Giving it hr:payroll later: the next delivery carries the salary.
    const widened = await server.rest('PUT', `/v1/webhooks/${narrow.body.id}`, {
      key: admin,
      body: { scopes: ['hr:read', 'hr:payroll'] },
    });
    expect(widened.status, widened.text).toBe(200);
    await server.rest('PUT', `/v1/hr/employees/${employee.id}`, { key: payroll, body: { salary: 10_100_000 } });
    const [, second] = await withoutPay.waitFor(2);
    expect(JSON.parse(second!.body).data.object.salary).toBe(10_100_000);
  });

  it('refuses webhook scopes that cannot read its events (400) or that the caller lacks (403), naming scopes', async () => {
    const target = await receiver();
    const res = await server.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: target.url, events: ['employee.updated', 'contact.created'], scopes: ['hr:read'] },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'scopes' });
    expect(res.body.error.message).toContain('crm:read');
    // Managing webhooks needs admin, which holds every scope: the rule is the service's, for a narrower manager.
    const narrowCaller = { ...operatorPrincipal(org.id), operator: false, scopes: new Set(['hr:read']) };
    await expect(
      server.services.webhooks.create(narrowCaller, {
        url: target.url,
        events: ['employee.updated'],
        scopes: ['hr:read', 'hr:payroll'],
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'scopes' });
  });
});

describe('the scope itself', () => {
  it('is offered on the consent page with its description, and in the OAuth metadata', async () => {
    const app = await createApp(server, org.id, { scopes: ['hr:read', 'hr:payroll'] });
    const user = await createUser(server, org.id);
    const browser = new Browser(server.url);
    const url = authorizeUrl({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: 'hr:read hr:payroll',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const signIn = await browser.signIn(await browser.get(url), user);
    expect(signIn.status, signIn.html).toBe(303);
    const consent = await browser.get(signIn.location!);
    expect(consent.status, consent.html).toBe(200);
    expect(consent.html).toContain('Read and change salaries, compensation, pay components and payroll runs.');
    expect(consent.html).toContain('<code>hr:payroll</code>');
    const metadata = await server.rest('GET', '/.well-known/oauth-authorization-server');
    expect(metadata.body.scopes_supported).toContain('hr:payroll');
  });
});

describe('exports', () => {
  async function exported(body: Body): Promise<{ export: Body; file: string }> {
    const created = await server.rest('POST', '/v1/exports', { key: admin, body });
    expect(created.status, created.text).toBe(202);
    const done = await finishedJob(server, 'exports', created.body.id as string, admin, { timeoutMs: 30_000 });
    const file = await server.rest('GET', `/v1/exports/${created.body.id}/download`, { key: admin });
    expect(file.status, file.text).toBe(200);
    return { export: done, file: file.text };
  }

  it('writes employees without salary and currency for an export whose scopes lack hr:payroll', async () => {
    const own = await server.org();
    const ownAdmin = await own.key(['admin']);
    const res = await server.rest('POST', '/v1/hr/employees', {
      key: ownAdmin,
      body: { firstName: 'Ada', lastName: 'L', email: 'ada@export.example', ...SALARIED },
    });
    expect(res.status, res.text).toBe(201);
    const created = await server.rest('POST', '/v1/exports', {
      key: ownAdmin,
      body: { resource: 'employees', format: 'csv', scopes: ['hr:read'] },
    });
    expect(created.status, created.text).toBe(202);
    expect(created.body.scopes).toEqual(['hr:read']);
    const done = await eventually(async () => {
      const shown = await server.rest('GET', `/v1/exports/${created.body.id}`, { key: ownAdmin });
      return shown.body.status === 'completed';
    }, 30_000);
    expect(done).toBe(true);
    const csv = await server.rest('GET', `/v1/exports/${created.body.id}/download`, { key: ownAdmin });
    const [header, row] = parseCsv(csv.text) as string[][];
    expect(header).not.toContain('salary');
    expect(header).not.toContain('currency');
    expect(header).toContain('email');
    expect(row![header!.indexOf('email')]).toBe('ada@export.example');
    expect(csv.text).not.toContain('9600000');

    // The default is the caller's: an admin's file has them.
    const full = await server.rest('POST', '/v1/exports', {
      key: ownAdmin,
      body: { resource: 'employees', format: 'json' },
    });
    expect(full.body.scopes).toEqual(['admin']);
    await eventually(async () => {
      const shown = await server.rest('GET', `/v1/exports/${full.body.id}`, { key: ownAdmin });
      return shown.body.status === 'completed';
    }, 30_000);
    const json = await server.rest('GET', `/v1/exports/${full.body.id}/download`, { key: ownAdmin });
    expect(JSON.parse(json.text.trim())).toMatchObject({ email: 'ada@export.example', ...SALARIED });
  });

  it('writes events as its scopes read them, and refuses scopes that cannot read the resource', async () => {
    const employee = await hire(SALARIED);
    const { file } = await exported({
      resource: 'events',
      format: 'json',
      filters: { objectId: employee.id },
      scopes: ['hr:read'],
    });
    const events = file
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(events.map((event: Body) => event.type)).toEqual(['employee.created']);
    expect(events[0].data.object).not.toHaveProperty('salary');
    expect(events[0].data.object.id).toBe(employee.id);

    const refused = await server.rest('POST', '/v1/exports', {
      key: admin,
      body: { resource: 'employees', format: 'csv', scopes: ['crm:read'] },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'scopes' });
  });
});
