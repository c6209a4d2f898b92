// `Prefer: dry-run` on every write of /v1 (issue 29, part 3), over every write
// route of the contract suite: the dry run answers what the real write that
// follows it answers (ids and times aside), names the events the write raises,
// and leaves every table of the database as it was (its rows and a checksum of
// them); refusals (400, 404, 409) are the same refusals. GraphQL mutations take
// the same header.
import { beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type Operation, type ResourceContract } from './support/contract.js';
import { contractResources } from './support/contract-resources.js';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
const RESOURCES = contractResources(server);

type Body = Record<string, unknown> & { id: string };
const v1 = (path: string) => `/v1${path}`;
const DRY_RUN = { prefer: 'dry-run' };

/**
 * Every table of the database, each as its row count and an md5 of its rows in
 * order. Left out: what authentication and the rate limit write on every
 * request, dry or not (an API key's lastUsedAt, the limiter's counters).
 */
async function databaseState(): Promise<Record<string, string>> {
  const tables = await server.prisma.$queryRawUnsafe<{ schema: string; name: string }[]>(
    `select schemaname as schema, tablename as name from pg_tables
     where schemaname not in ('pg_catalog', 'information_schema') and tablename not ilike '%rate%limit%'
     order by 1, 2`,
  );
  const row = (t: string) => `(to_jsonb(${t}) - 'lastUsedAt')::text`;
  const parts = tables.map(
    ({ schema, name }) =>
      `select '${schema}.${name}' as name, count(*) || ':' || md5(coalesce(string_agg(${row('t')}, '' order by ${row('t')}), '')) as state
       from "${schema}"."${name}" t`,
  );
  const rows = await server.prisma.$queryRawUnsafe<{ name: string; state: string }[]>(parts.join(' union all '));
  return Object.fromEntries(rows.map(({ name, state }) => [name, state]));
}

const ID = /^[a-z]+_[0-9a-z]{26}$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
/** Made anew at random by each write: a key or client secret, and the parts of them shown. */
const SECRET_FIELDS = new Set(['key', 'prefix', 'secret', 'clientId', 'clientSecret', 'signingSecret']);

/** An answer with its ids numbered in order of appearance, its times and fresh secrets blanked. */
function normalised(value: unknown, ids = new Map<string, string>(), field = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalised(item, ids, field));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalised(item, ids, key)]));
  }
  if (typeof value !== 'string') return value;
  if (SECRET_FIELDS.has(field)) return '<secret>';
  if (TIME.test(value)) return '<time>';
  if (ID.test(value)) {
    if (!ids.has(value)) ids.set(value, `<id ${ids.size + 1}>`);
    return ids.get(value);
  }
  return value;
}

const pick = (object: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, object[name]]));

const wouldRaise = (res: TestResponse) =>
  (res.headers.get('would-raise') ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);

async function eventIds(organizationId: string): Promise<Set<string>> {
  const rows = await server.prisma.$queryRawUnsafe<{ id: string }[]>(
    'select id from "Event" where "organizationId" = $1',
    organizationId,
  );
  return new Set(rows.map((row) => row.id));
}

/** The types of the events of the organization made since `before`, in order. */
async function raisedSince(organizationId: string, before: Set<string>): Promise<string[]> {
  const rows = await server.prisma.$queryRawUnsafe<{ id: string; type: string }[]>(
    'select id, type from "Event" where "organizationId" = $1 order by "createdAt", id',
    organizationId,
  );
  return rows.filter((row) => !before.has(row.id)).map((row) => row.type);
}

/** The dry run, then the real request: the same answer, nothing kept by the first, the events it named raised by the second. */
async function expectDryRunLikeTheWrite(home: TestOrg, key: string, operation: Operation): Promise<TestResponse> {
  const send = (headers?: Record<string, string>) =>
    server.rest(operation.method, v1(operation.path), { key, body: operation.body, headers });
  const label = `${operation.method} ${operation.path}`;
  const before = await databaseState();
  const dry = await send(DRY_RUN);
  expect(dry.headers.get('preference-applied'), label).toBe('dry-run');
  expect(await databaseState(), `${label} left the database as it was`).toEqual(before);

  const events = await eventIds(home.id);
  const real = await send();
  expect(real.headers.get('preference-applied'), label).toBeNull();
  expect(dry.status, `${label}: ${dry.text} / ${real.text}`).toBe(real.status);
  expect(normalised(dry.body), label).toEqual(normalised(real.body));
  expect(wouldRaise(dry), `${label} names the events it raises`).toEqual(await raisedSince(home.id, events));
  return real;
}

describe.each(RESOURCES)('$name', (resource: ResourceContract) => {
  const { path, scopes, idPrefix } = resource;
  let n = 0;
  let home: TestOrg;
  let key: string;

  beforeAll(async () => {
    home = await server.org();
    key = await home.key([scopes.read, scopes.write]);
  });

  async function prepared(): Promise<Record<string, string>> {
    const send = (method: Operation['method'], at: string, body?: Record<string, unknown>) =>
      server.rest(method, v1(at), { key, body });
    return resource.create.prepare ? resource.create.prepare(send, key) : {};
  }

  async function operations(id: string): Promise<Operation[]> {
    const all = operationsOf(resource, id, ++n, await prepared());
    for (const action of resource.actions.filter((a) => a.prepare)) {
      all.find((operation) => operation.name === action.name)!.body = (await action.prepare!(key)) as Body;
    }
    return all;
  }

  async function create(): Promise<Body> {
    const body = resource.create.body(++n, await prepared());
    const res = await server.rest('POST', v1(path), { key, body });
    expect(res.status, res.text).toBe(resource.create.status);
    return res.body;
  }

  const writes = operationsOf(resource, 'any', 0).filter((operation) => operation.method !== 'GET');

  it.each(writes.map((operation) => [operation.name]))(
    '%s: a dry run answers what the write does, names its events, and keeps nothing',
    async (name) => {
      const record = await create();
      const operation = (await operations(record.id)).find((op) => op.name === name)!;
      await expectDryRunLikeTheWrite(home, key, operation);
    },
  );

  it('refuses a dry run as it refuses the write: an unknown field (400), an absent record (404)', async () => {
    const record = await create();
    const all = await operations(record.id);
    const creating = all.find((op) => op.name === 'create')!;
    await expectDryRunLikeTheWrite(home, key, { ...creating, body: { ...creating.body, noSuchField: 1 } });
    const absent = `${idPrefix}_${'0'.repeat(26)}`;
    for (const operation of all.filter((op) => op.byId && op.method !== 'GET')) {
      const res = await expectDryRunLikeTheWrite(home, key, {
        ...operation,
        path: operation.path.replace(record.id, absent),
      });
      expect(res.status).toBe(404);
    }
  });

  it.runIf(resource.unique?.length)('refuses a dry run of a create that takes a unique value (409)', async () => {
    for (const { field } of resource.unique ?? []) {
      const taken = await create();
      const creating = (await operations(taken.id)).find((op) => op.name === 'create')!;
      const res = await expectDryRunLikeTheWrite(home, key, {
        ...creating,
        body: { ...creating.body, [field]: taken[field] },
      });
      expect(res.status, res.text).toBe(409);
    }
  });
});

describe('Idempotency-Key', () => {
  it('is neither replayed to nor stored by a dry run', async () => {
    const home = await server.org();
    const key = await home.key(['crm:write', 'crm:read']);
    const body = { firstName: 'Ada', email: 'ada-idempotent@example.test' };
    const headers = { 'idempotency-key': 'dry-run-key-1' };
    const dry = await server.rest('POST', '/v1/crm/contacts', { key, body, headers: { ...headers, ...DRY_RUN } });
    expect(dry.status, dry.text).toBe(201);
    // The key is still free: the real write runs, and its repeat is the replay.
    const real = await server.rest('POST', '/v1/crm/contacts', { key, body, headers });
    expect(real.status).toBe(201);
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    expect(real.body.id).not.toBe(dry.body.id);
    // A dry run after it is not a replay: it runs, and meets the contact the real write made.
    const again = await server.rest('POST', '/v1/crm/contacts', { key, body, headers: { ...headers, ...DRY_RUN } });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('preference-applied')).toBe('dry-run');
    const replay = await server.rest('POST', '/v1/crm/contacts', { key, body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(real.body);
  });
});

describe('Prefer', () => {
  it('is read as RFC 7240 says: among other preferences, in any case; a GET ignores it', async () => {
    const home = await server.org();
    const key = await home.key(['crm:write', 'crm:read']);
    const before = await databaseState();
    const dry = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { firstName: 'Grace', email: 'grace@example.test' },
      headers: { prefer: 'return=representation, Dry-Run; note=1' },
    });
    expect(dry.status, dry.text).toBe(201);
    expect(dry.headers.get('preference-applied')).toBe('dry-run');
    expect(dry.headers.get('would-raise')).toBe('contact.created');
    expect(await databaseState()).toEqual(before);
    const list = await server.rest('GET', '/v1/crm/contacts', { key, headers: DRY_RUN });
    expect(list.status).toBe(200);
    expect(list.headers.get('preference-applied')).toBeNull();
    expect(list.body.data).toEqual([]);
  });
});

describe('GraphQL', () => {
  const createContact = `mutation($input: CreateContactInput!) { createContact(input: $input) { id firstName email } }`;

  it('runs a mutation with Prefer: dry-run: its data, the events in a header and in extensions, nothing kept', async () => {
    const home = await server.org();
    const key = await home.key(['crm:write', 'crm:read']);
    const before = await databaseState();
    const dry = await server.gql(
      createContact,
      { input: { firstName: 'Katherine', email: 'katherine@example.test' } },
      { key, headers: DRY_RUN },
    );
    expect(dry.errors).toBeUndefined();
    expect(dry.data.createContact.firstName).toBe('Katherine');
    expect(dry.headers.get('preference-applied')).toBe('dry-run');
    expect(dry.headers.get('would-raise')).toBe('contact.created');
    expect(dry.body.extensions.wouldRaise).toEqual(['contact.created']);
    expect(await databaseState()).toEqual(before);
    const real = await server.gql(
      createContact,
      { input: { firstName: 'Katherine', email: 'katherine@example.test' } },
      { key },
    );
    expect(real.errors).toBeUndefined();
    expect(real.body.extensions?.wouldRaise).toBeUndefined();
    expect(normalised(real.data)).toEqual(normalised(dry.data));
  });

  it('answers a payment that settles an invoice as REST does: the same Would-Raise, the same object, nothing kept', async () => {
    const home = await server.org();
    const key = await home.key(['finance:read', 'finance:write', 'crm:write']);
    const contact = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'payer@example.test' } });
    const invoice = await server.rest('POST', '/v1/finance/invoices', {
      key,
      body: {
        contactId: contact.body.id,
        currency: 'EUR',
        lines: [{ description: 'Work', quantity: 1, unitAmount: 900 }],
      },
    });
    expect((await server.rest('POST', `/v1/finance/invoices/${invoice.body.id}/open`, { key })).status).toBe(200);
    const input = { invoiceId: invoice.body.id, amount: 900, currency: 'EUR', method: 'card', reference: 'R-1' };
    const fields = 'id invoiceId amount currency method reference receivedAt createdAt';
    const createPayment = `mutation($input: CreatePaymentInput!) { createPayment(input: $input) { ${fields} invoice { status amountDue } } }`;

    const before = await databaseState();
    const viaRest = await server.rest('POST', '/v1/finance/payments', { key, body: input, headers: DRY_RUN });
    const dry = await server.gql(createPayment, { input }, { key, headers: DRY_RUN });
    expect(await databaseState()).toEqual(before);
    expect(dry.errors).toBeUndefined();
    expect(viaRest.status, viaRest.text).toBe(201);
    expect(dry.headers.get('preference-applied')).toBe(viaRest.headers.get('preference-applied'));
    expect([...wouldRaise(dry)].sort()).toEqual(['invoice.paid', 'payment.received']);
    expect(wouldRaise(dry)).toEqual(wouldRaise(viaRest));
    expect(dry.body.extensions.wouldRaise).toEqual(wouldRaise(viaRest));
    const { invoice: settled, ...payment } = dry.data.createPayment;
    expect(settled).toEqual({ status: 'paid', amountDue: 0 });
    expect(normalised(payment)).toEqual(normalised(pick(viaRest.body, fields.split(' '))));

    const events = await eventIds(home.id);
    const real = await server.gql(createPayment, { input }, { key });
    expect(real.errors).toBeUndefined();
    expect(await raisedSince(home.id, events)).toEqual(dry.body.extensions.wouldRaise);
    expect(normalised(real.data)).toEqual(normalised(dry.data));
  });

  it('answers a refused mutation with the same error, and an empty list of events', async () => {
    const home = await server.org();
    const key = await home.key(['crm:write', 'crm:read']);
    const dry = await server.gql(
      createContact,
      { input: { firstName: 'K', email: 'not an email' } },
      { key, headers: DRY_RUN },
    );
    const real = await server.gql(createContact, { input: { firstName: 'K', email: 'not an email' } }, { key });
    expect(dry.errors).toEqual(real.errors);
    expect(dry.status).toBe(real.status);
    expect(dry.body.extensions.wouldRaise).toEqual([]);
    expect(dry.headers.get('would-raise')).toBeNull();
  });
});

describe('OpenAPI', () => {
  it('documents Prefer on every write, and Preference-Applied and Would-Raise on its success', async () => {
    const res = await server.rest('GET', '/v1/openapi.json');
    const writes = Object.entries(res.body.paths as Record<string, Record<string, OpenApiOperation>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods)
          .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
          // An upload (an import's file) is refused a dry run: it has its own dryRun option.
          .filter(([, operation]) => !operation.requestBody || 'application/json' in operation.requestBody.content)
          .map(([method, operation]) => ({ at: `${method} ${path}`, operation })),
    );
    expect(writes.length).toBeGreaterThan(40);
    for (const { at, operation } of writes) {
      expect(
        operation.parameters.map((p) => `${p.in} ${p.name}`),
        at,
      ).toContain('header Prefer');
      const [status, success] = Object.entries(operation.responses).find(([code]) => code.startsWith('2'))!;
      expect(Object.keys(success.headers ?? {}), `${at} ${status}`).toEqual(
        expect.arrayContaining(['Preference-Applied', 'Would-Raise']),
      );
    }
    expect(res.body.components.headers['Would-Raise'].description).toMatch(/events the write would raise/);
  });
});

interface OpenApiOperation {
  requestBody?: { content: Record<string, unknown> };
  parameters: { name: string; in: string }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
}

describe('the writes outside the contract suite', () => {
  let home: TestOrg;
  let admin: string;
  const operation = (method: Operation['method'], path: string, body?: Record<string, unknown>): Operation => ({
    name: `${method} ${path}`,
    method,
    path,
    documented: path,
    body: body as Body | undefined,
    scope: 'admin',
    status: 200,
    byId: false,
  });

  beforeAll(async () => {
    home = await server.org();
    admin = await home.key(['admin']);
  });

  it('an export: the same answer, and no export row, job or event kept', async () => {
    await server.rest('POST', '/v1/crm/contacts', { key: admin, body: { firstName: 'A', email: 'a@example.test' } });
    const res = await expectDryRunLikeTheWrite(
      home,
      admin,
      operation('POST', '/exports', { resource: 'contacts', format: 'csv' }),
    );
    expect(res.status, res.text).toBe(202);
  });

  it("the organization's settings", async () => {
    await expectDryRunLikeTheWrite(home, admin, operation('PUT', '/organization', { timeZone: 'Europe/Paris' }));
  });

  it("a webhook's test delivery and its new secret; an OAuth app's new secret", async () => {
    const hook = await server.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: 'http://127.0.0.1:9/hook', events: ['contact.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    await expectDryRunLikeTheWrite(home, admin, operation('POST', `/webhooks/${hook.body.id}/test`));
    await expectDryRunLikeTheWrite(home, admin, operation('POST', `/webhooks/${hook.body.id}/rotate-secret`));
    const app = await server.rest('POST', '/v1/oauth-apps', {
      key: admin,
      body: { name: 'App', redirectUris: ['https://app.example.test/cb'], scopes: ['crm:read'] },
    });
    expect(app.status, app.text).toBe(201);
    await expectDryRunLikeTheWrite(home, admin, operation('POST', `/oauth-apps/${app.body.id}/rotate-secret`));
  });
});
