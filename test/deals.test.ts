// Deals over REST and GraphQL: fields and their validation, the stage lifecycle
// and its events, the contact a deal names, tenancy, and the relation fields
// Contact.deals / Deal.contact batched into one query per list.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';
import { startTestServer, type TestServer } from './support/server.js';

const server = useServer();
let org: TestOrg;
let key: string;
let readKey: string;
let writeOnlyKey: string;
let otherKey: string;

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['crm:read', 'crm:write']);
  readKey = await org.key(['crm:read']);
  writeOnlyKey = await org.key(['crm:write']);
  otherKey = await (await server.org()).key(['crm:read', 'crm:write']);
});

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const OPEN = ['lead', 'qualified', 'proposal', 'negotiation'] as const;
const CLOSED = ['won', 'lost'] as const;
const STAGES = [...OPEN, ...CLOSED];

const DEAL_FIELDS = 'id title amount currency stage contactId expectedCloseDate closedAt createdAt updatedAt';

let counter = 0;

async function createDeal(body: Record<string, unknown> = {}, withKey = key) {
  const res = await server.rest('POST', '/v1/crm/deals', {
    key: withKey,
    body: { title: `Deal ${++counter}`, currency: 'USD', ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function createContact(withKey = key) {
  const res = await server.rest('POST', '/v1/crm/contacts', {
    key: withKey,
    body: { email: `deal-contact-${++counter}@example.com` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const put = (id: string, body: unknown, withKey = key) =>
  server.rest('PUT', `/v1/crm/deals/${id}`, { key: withKey, body });

interface EventBody {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

/** Every event of this type about this deal, read back as a client reads them (all pages). */
async function eventsOf(dealId: string, type: string): Promise<EventBody[]> {
  const events: EventBody[] = [];
  for (let page = 1; ; page++) {
    const res = await server.rest('GET', `/v1/events?type=${type}&limit=100&page=${page}`, { key });
    expect(res.status, res.text).toBe(200);
    events.push(...(res.body.data as EventBody[]).filter((event) => event.data.object.id === dealId));
    if (page >= res.body.pagination.pages) return events;
  }
}

async function dealEvents(dealId: string) {
  const [created, stageChanged, closed] = await Promise.all(
    ['deal.created', 'deal.stage_changed', 'deal.closed'].map((type) => eventsOf(dealId, type)),
  );
  return { created: created!, stageChanged: stageChanged!, closed: closed! };
}

function expectValidationError(res: TestResponse, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field });
  expect(res.body.error.message).toEqual(expect.any(String));
}

describe('POST /v1/crm/deals', () => {
  it('creates an open deal with defaults and answers 201 with the whole record', async () => {
    const res = await server.rest('POST', '/v1/crm/deals', { key, body: { title: '  Pilot  ', currency: 'eur' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^deal_[0-9a-z]{26}$/),
      title: 'Pilot',
      amount: 0,
      currency: 'EUR',
      stage: 'lead',
      contactId: null,
      expectedCloseDate: null,
      closedAt: null,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    const fetched = await server.rest('GET', `/v1/crm/deals/${res.body.id}`, { key });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
  });

  it('takes every field, amounts up to 2^53 - 1, and writes deal.created with the record', async () => {
    const contact = await createContact();
    const deal = await createDeal({
      title: 'Big one',
      amount: Number.MAX_SAFE_INTEGER,
      currency: 'JPY',
      stage: 'proposal',
      contactId: contact.id,
      expectedCloseDate: '2028-02-29',
    });
    expect(deal).toMatchObject({
      amount: 9007199254740991,
      currency: 'JPY',
      stage: 'proposal',
      contactId: contact.id,
      expectedCloseDate: '2028-02-29',
      closedAt: null,
    });
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).body).toEqual(deal);
    const events = await dealEvents(deal.id);
    expect(events.created).toHaveLength(1);
    expect(events.created[0]!.data).toEqual({ object: deal });
    expect(events.stageChanged).toHaveLength(0);
  });

  it('accepts null for optional fields as omitted', async () => {
    const deal = await createDeal({ amount: null, stage: null, contactId: null, expectedCloseDate: null });
    expect(deal).toMatchObject({ amount: 0, stage: 'lead', contactId: null, expectedCloseDate: null });
  });

  it.each([
    ['currency', { currency: 'XYZ' }],
    ['currency', { currency: 'US' }],
    ['currency', { currency: 840 }],
    ['amount', { amount: -1 }],
    ['amount', { amount: 1.5 }],
    ['amount', { amount: '10' }],
    ['amount', { amount: Number.MAX_SAFE_INTEGER + 1 }],
    ['expectedCloseDate', { expectedCloseDate: '2026-02-30' }],
    ['expectedCloseDate', { expectedCloseDate: '2025-02-29' }],
    ['expectedCloseDate', { expectedCloseDate: '2026-1-5' }],
    ['expectedCloseDate', { expectedCloseDate: '2026-01-05T00:00:00Z' }],
    ['expectedCloseDate', { expectedCloseDate: '0000-01-01' }],
    ['title', { title: undefined }],
    ['title', { title: '   ' }],
    ['title', { title: 'x'.repeat(201) }],
    ['title', { title: 'a\u0000b' }],
    ['stage', { stage: 'won' }],
    ['stage', { stage: 'lost' }],
    ['stage', { stage: 'closed' }],
    ['contactId', { contactId: 'con_nope' }],
    ['contactId', { contactId: 42 }],
    ['probability', { probability: 0.5 }],
  ])('refuses a bad %s (%j) naming the field, writing nothing', async (field, patch) => {
    const dealCount = async () => {
      const [{ n }] = await server.prisma.$queryRaw<[{ n: number }]>`select count(*)::int as n from "Deal"`;
      return n;
    };
    const before = await dealCount();
    const res = await server.rest('POST', '/v1/crm/deals', { key, body: { title: 'Bad', currency: 'USD', ...patch } });
    expectValidationError(res, field);
    expect(await dealCount()).toBe(before);
  });

  it("refuses a closedAt other than the record's (issue 23), so a deal that was read can be sent back", async () => {
    const closed = await server.rest('POST', '/v1/crm/deals', {
      key,
      body: { title: 'Sent back', currency: 'USD', closedAt: '2026-01-01T00:00:00.000Z' },
    });
    expectValidationError(closed, 'closedAt');
    const res = await server.rest('POST', '/v1/crm/deals', {
      key,
      body: { title: 'Sent back', currency: 'USD', closedAt: null },
    });
    expect(res.status).toBe(201);
    expect(res.body.closedAt).toBeNull();
    const { id: _id, createdAt: _c, updatedAt: _u, ...readBack } = res.body;
    const path = `/v1/crm/deals/${res.body.id}`;
    expectValidationError(await server.rest('PUT', path, { key, body: { ...readBack, closedAt: 'x' } }), 'closedAt');
    const put = await server.rest('PUT', path, { key, body: readBack });
    expect(put.status).toBe(200);
    expect(put.body).toEqual(res.body);
  });

  it('requires the currency', async () => {
    expectValidationError(await server.rest('POST', '/v1/crm/deals', { key, body: { title: 'No money' } }), 'currency');
  });

  it('needs crm:write, and crm:read to read', async () => {
    const refused = await server.rest('POST', '/v1/crm/deals', { key: readKey, body: { title: 'x', currency: 'USD' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('crm:write') });
    const deal = await createDeal({}, writeOnlyKey);
    const read = await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key: writeOnlyKey });
    expect(read.status).toBe(403);
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key: readKey })).status).toBe(200);
  });
});

describe('GET /v1/crm/deals', () => {
  let listKey: string;
  let contactId: string;
  const titles = ['Alpha renewal', 'beta expansion', 'Gamma 100% deal', 'Delta renewal'];

  beforeAll(async () => {
    const listOrg = await server.org();
    listKey = await listOrg.key(['crm:read', 'crm:write']);
    contactId = (await createContact(listKey)).id;
    const amounts = [500, 100, 300, 200];
    const stages = ['lead', 'proposal', 'proposal', 'qualified'];
    for (const [i, title] of titles.entries()) {
      await createDeal({ title, amount: amounts[i], stage: stages[i], ...(i % 2 === 0 && { contactId }) }, listKey);
    }
  });

  const list = async (query: string) => {
    const res = await server.rest('GET', `/v1/crm/deals${query}`, { key: listKey });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('lists the organization’s deals oldest first with pagination', async () => {
    const body = await list('?limit=3');
    expect(body.data.map((d: { title: string }) => d.title)).toEqual(titles.slice(0, 3));
    expect(body.pagination).toEqual({
      page: 1,
      limit: 3,
      total: 4,
      pages: 2,
      totalExact: true,
      next: expect.any(String),
    });
    expect((await list('?limit=3&page=2')).data).toHaveLength(1);
  });

  it('filters by stage, contactId and title text', async () => {
    expect((await list('?stage=proposal')).data.map((d: { title: string }) => d.title)).toEqual([
      'beta expansion',
      'Gamma 100% deal',
    ]);
    expect((await list(`?contactId=${contactId}`)).data.map((d: { title: string }) => d.title)).toEqual([
      'Alpha renewal',
      'Gamma 100% deal',
    ]);
    expect((await list('?q=RENEWAL')).pagination.total).toBe(2);
    expect((await list('?q=100%25')).data.map((d: { title: string }) => d.title)).toEqual(['Gamma 100% deal']);
    expect((await list('?q=renewal&stage=qualified')).data.map((d: { title: string }) => d.title)).toEqual([
      'Delta renewal',
    ]);
    expect((await list('?contactId=con_nope')).data).toEqual([]);
  });

  it('sorts by amount, title and stage, either way', async () => {
    const amounts = (body: { data: { amount: number }[] }) => body.data.map((d) => d.amount);
    expect(amounts(await list('?sort=amount'))).toEqual([100, 200, 300, 500]);
    expect(amounts(await list('?sort=-amount'))).toEqual([500, 300, 200, 100]);
    expect((await list('?sort=title')).data.map((d: { title: string }) => d.title)).toEqual([
      'Alpha renewal',
      'Delta renewal',
      'Gamma 100% deal',
      'beta expansion',
    ]);
    expect((await list('?sort=-stage')).data[0].stage).toBe('qualified');
    for (const sort of ['createdAt', 'updatedAt', 'expectedCloseDate', 'closedAt']) await list(`?sort=-${sort}`);
  });

  it('refuses unknown sort fields, stages and out-of-range pages by name', async () => {
    for (const [query, field] of [
      ['?sort=probability', 'sort'],
      ['?stage=closed', 'stage'],
      ['?limit=101', 'limit'],
      ['?q=a%00b', 'q'],
    ]) {
      expectValidationError(await server.rest('GET', `/v1/crm/deals${query}`, { key: listKey }), field!);
    }
  });
});

describe('PUT /v1/crm/deals/:id', () => {
  it('changes sent fields, keeps omitted ones, clears with null, and writes no event without a stage change', async () => {
    const contact = await createContact();
    const deal = await createDeal({ amount: 1000, contactId: contact.id, expectedCloseDate: '2027-01-31' });
    const res = await put(deal.id, { title: 'Renamed', amount: 2500, currency: 'gbp', expectedCloseDate: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...deal,
      title: 'Renamed',
      amount: 2500,
      currency: 'GBP',
      expectedCloseDate: null,
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(deal.updatedAt));
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).body).toEqual(res.body);

    const unlinked = await put(deal.id, { contactId: null });
    expect(unlinked.body.contactId).toBeNull();
    const events = await dealEvents(deal.id);
    expect(events.stageChanged).toHaveLength(0);
    expect(events.closed).toHaveLength(0);
  });

  it('answers 200 without touching updatedAt when nothing changes', async () => {
    const deal = await createDeal({ amount: 5, expectedCloseDate: '2027-03-01', stage: 'qualified' });
    for (const body of [{}, { amount: 5, currency: 'usd', stage: 'qualified', expectedCloseDate: '2027-03-01' }]) {
      const res = await put(deal.id, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(deal);
    }
    expect((await dealEvents(deal.id)).stageChanged).toHaveLength(0);
  });

  it.each([
    ['title', { title: null }],
    ['currency', { currency: null }],
    ['stage', { stage: null }],
    ['amount', { amount: null }],
    ['currency', { currency: 'ABC' }],
    ['amount', { amount: -5 }],
    ['expectedCloseDate', { expectedCloseDate: '2026-13-01' }],
    ['contactId', { contactId: 'nonsense' }],
    ['stage', { stage: 'archived' }],
    ['nickname', { nickname: 'x' }],
  ])('refuses a bad %s (%j) and changes nothing', async (field, body) => {
    const deal = await createDeal();
    expectValidationError(await put(deal.id, body), field);
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).body).toEqual(deal);
  });
});

describe('DELETE /v1/crm/deals/:id', () => {
  it('answers 204 with an empty body, then 404; writes no event', async () => {
    const deal = await createDeal();
    const res = await server.rest('DELETE', `/v1/crm/deals/${deal.id}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).status).toBe(404);
    const again = await server.rest('DELETE', `/v1/crm/deals/${deal.id}`, { key });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');
    const events = await dealEvents(deal.id);
    expect(events.created).toHaveLength(1);
    expect(events.stageChanged).toHaveLength(0);
  });

  it('answers 404 for malformed and unknown ids', async () => {
    for (const id of ['deal_nope', 'con_01jabcdefghjkmnpqrstvwxyz0', 'deal_01jabcdefghjkmnpqrstvwxyz0']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await server.rest(method, `/v1/crm/deals/${id}`, { key, ...(method === 'PUT' && { body: {} }) });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
  });
});

describe('the stage lifecycle', () => {
  const openMoves = OPEN.flatMap((from) => OPEN.filter((to) => to !== from).map((to) => [from, to] as const));
  const closingMoves = OPEN.flatMap((from) => CLOSED.map((to) => [from, to] as const));
  const refusedMoves = CLOSED.flatMap((from) => STAGES.filter((to) => to !== from).map((to) => [from, to] as const));

  it('has 12 open moves, 8 closing moves and 10 refused ones', () => {
    expect([openMoves.length, closingMoves.length, refusedMoves.length]).toEqual([12, 8, 10]);
  });

  it.each(openMoves)('%s -> %s: deal.stage_changed with the previous stage, no close', async (from, to) => {
    const deal = await createDeal({ stage: from });
    const res = await put(deal.id, { stage: to });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ...deal, stage: to, updatedAt: expect.stringMatching(ISO_UTC) });
    const events = await dealEvents(deal.id);
    expect(events.stageChanged).toHaveLength(1);
    expect(events.stageChanged[0]!.data).toEqual({
      object: res.body,
      previousAttributes: { stage: from, updatedAt: deal.updatedAt },
    });
    expect(events.closed).toHaveLength(0);
  });

  it.each(closingMoves)('%s -> %s: closedAt set, deal.stage_changed then deal.closed', async (from, to) => {
    const deal = await createDeal({ stage: from });
    const res = await put(deal.id, { stage: to });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ...deal, stage: to, closedAt: res.body.updatedAt, updatedAt: expect.any(String) });
    expect(res.body.closedAt).toMatch(ISO_UTC);
    expect(Date.parse(res.body.closedAt)).toBeGreaterThanOrEqual(Date.parse(deal.createdAt));
    const events = await dealEvents(deal.id);
    expect(events.stageChanged).toHaveLength(1);
    expect(events.stageChanged[0]!.data).toEqual({
      object: res.body,
      previousAttributes: { stage: from, closedAt: null, updatedAt: deal.updatedAt },
    });
    expect(events.closed).toHaveLength(1);
    expect(events.closed[0]!.data).toEqual({ object: res.body });
    expect(events.closed[0]!.created).toBeGreaterThanOrEqual(events.stageChanged[0]!.created);
  });

  it.each(refusedMoves)('%s -> %s: 409 naming the current stage, nothing written', async (from, to) => {
    const deal = (await put((await createDeal()).id, { stage: from })).body;
    const res = await put(deal.id, { stage: to, title: 'Should not stick' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      message: `Deal is ${from}; a closed deal's stage cannot change`,
    });
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).body).toEqual(deal);
    const events = await dealEvents(deal.id);
    expect([events.stageChanged.length, events.closed.length]).toEqual([1, 1]);
  });

  it('refuses any edit of a closed deal (issue 23): 409 naming its stage, nothing written', async () => {
    const deal = (await put((await createDeal({ amount: 10 })).id, { stage: 'won' })).body;
    for (const body of [{ stage: 'won' }, { stage: 'won', amount: 12, title: 'Won, corrected' }, { amount: 12 }]) {
      const refused = await put(deal.id, body);
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'CONFLICT', field: 'stage' });
      expect(refused.body.error.message).toContain('Deal is won');
    }
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).body).toEqual(deal);
    const events = await dealEvents(deal.id);
    expect([events.stageChanged.length, events.closed.length]).toEqual([1, 1]);
  });

  it('puts every field a stage change changes into previousAttributes', async () => {
    const contact = await createContact();
    const deal = await createDeal({ title: 'Before', amount: 100, stage: 'qualified' });
    const res = await put(deal.id, { stage: 'negotiation', title: 'After', amount: 150, contactId: contact.id });
    expect(res.status, res.text).toBe(200);
    const [event] = (await dealEvents(deal.id)).stageChanged;
    expect(event!.data.previousAttributes).toEqual({
      title: 'Before',
      amount: 100,
      stage: 'qualified',
      contactId: null,
      updatedAt: deal.updatedAt,
    });
  });

  it('treats the current stage as no change', async () => {
    const deal = await createDeal({ stage: 'negotiation' });
    const res = await put(deal.id, { stage: 'negotiation' });
    expect(res.body).toEqual(deal);
    expect((await dealEvents(deal.id)).stageChanged).toHaveLength(0);
  });
});

describe('contactId', () => {
  it("refuses another organization's contact, a malformed id and an unknown one, as 400 contactId", async () => {
    const foreign = await createContact(otherKey);
    const deal = await createDeal();
    for (const contactId of [
      foreign.id,
      'con_x',
      'con_01jabcdefghjkmnpqrstvwxyz0',
      'deal_01jabcdefghjkmnpqrstvwxyz0',
    ]) {
      const created = await server.rest('POST', '/v1/crm/deals', {
        key,
        body: { title: 'x', currency: 'USD', contactId },
      });
      expectValidationError(created, 'contactId');
      expectValidationError(await put(deal.id, { contactId }), 'contactId');
    }
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).body.contactId).toBeNull();
  });

  it('is set to null when the contact is deleted; the deal stays', async () => {
    const contact = await createContact();
    const deal = await createDeal({ contactId: contact.id });
    expect((await server.rest('DELETE', `/v1/crm/contacts/${contact.id}`, { key })).status).toBe(204);
    const res = await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...deal, contactId: null });
  });
});

describe('tenancy', () => {
  it("answers 404 for another organization's deal on get, update and delete, and lists none of it", async () => {
    const deal = await createDeal({ amount: 7 });
    for (const [method, body] of [['GET'], ['PUT', { stage: 'won' }], ['DELETE']] as const) {
      const res = await server.rest(method, `/v1/crm/deals/${deal.id}`, { key: otherKey, body });
      expect(res.status, method).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const listed = await server.rest('GET', '/v1/crm/deals?limit=100', { key: otherKey });
    expect(listed.body.data.map((d: { id: string }) => d.id)).not.toContain(deal.id);
    const gql = await server.gql(`query ($id: ID!) { deal(id: $id) { id } }`, { id: deal.id }, { key: otherKey });
    expect(gql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).body).toEqual(deal);
  });
});

describe('GraphQL', () => {
  const CREATE = `mutation ($input: CreateDealInput!) { createDeal(input: $input) { ${DEAL_FIELDS} } }`;
  const UPDATE = `mutation ($id: ID!, $input: UpdateDealInput!) { updateDeal(id: $id, input: $input) { ${DEAL_FIELDS} } }`;

  it('creates, reads, lists, updates and deletes, agreeing with REST', async () => {
    const contact = await createContact();
    const created = await server.gql(
      CREATE,
      { input: { title: 'Via GraphQL', amount: 9007199254740991, currency: 'chf', contactId: contact.id } },
      { key },
    );
    expect(created.errors, created.text).toBeUndefined();
    const deal = created.data.createDeal;
    expect(deal).toMatchObject({ amount: 9007199254740991, currency: 'CHF', stage: 'lead', contactId: contact.id });
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).body).toEqual(deal);

    const read = await server.gql(`query ($id: ID!) { deal(id: $id) { ${DEAL_FIELDS} } }`, { id: deal.id }, { key });
    expect(read.data.deal).toEqual(deal);

    const listed = await server.gql(
      `query ($contactId: ID) { deals(contactId: $contactId, sort: amount_desc) { data { id } pagination { total } } }`,
      { contactId: contact.id },
      { key },
    );
    expect(listed.data.deals).toEqual({ data: [{ id: deal.id }], pagination: { total: 1 } });

    const updated = await server.gql(UPDATE, { id: deal.id, input: { stage: 'lost' } }, { key });
    expect(updated.errors, updated.text).toBeUndefined();
    expect(updated.data.updateDeal).toMatchObject({ stage: 'lost', closedAt: expect.stringMatching(ISO_UTC) });
    const refused = await server.gql(UPDATE, { id: deal.id, input: { stage: 'lead' } }, { key });
    expect(refused.errors?.[0]).toMatchObject({
      message: "Deal is lost; a closed deal's stage cannot change",
      extensions: { code: 'CONFLICT' },
    });

    const deleted = await server.gql(`mutation ($id: ID!) { deleteDeal(id: $id) }`, { id: deal.id }, { key });
    expect(deleted.data).toEqual({ deleteDeal: true });
    expect((await server.rest('GET', `/v1/crm/deals/${deal.id}`, { key })).status).toBe(404);
  });

  it.each([
    ['amount', { amount: '10' }],
    ['amount', { amount: 1.5 }],
    ['amount', { amount: -1 }],
    ['currency', { currency: 'XYZ' }],
    ['expectedCloseDate', { expectedCloseDate: '2026-02-30' }],
    ['stage', { stage: 'won' }],
    ['title', { title: '' }],
  ])('refuses a bad %s (%j) with VALIDATION_ERROR naming the field', async (field, patch) => {
    const res = await server.gql(CREATE, { input: { title: 'x', currency: 'USD', ...patch } }, { key });
    expect(res.errors, res.text).toHaveLength(1);
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field });
  });

  it('resolves Deal.contact and Contact.deals', async () => {
    const contact = await createContact();
    const first = await createDeal({ contactId: contact.id });
    const second = await createDeal({ contactId: contact.id, stage: 'qualified' });
    const lonely = await createDeal();
    const res = await server.gql(
      `query ($id: ID!, $a: ID!, $b: ID!) {
        contact(id: $id) { id deals { data { id stage } pagination { total } } }
        a: deal(id: $a) { contact { id email } }
        b: deal(id: $b) { contact { id } } }`,
      { id: contact.id, a: first.id, b: lonely.id },
      { key },
    );
    expect(res.errors, res.text).toBeUndefined();
    expect(res.data).toEqual({
      contact: {
        id: contact.id,
        deals: {
          data: [
            { id: first.id, stage: 'lead' },
            { id: second.id, stage: 'qualified' },
          ],
          pagination: { total: 2 },
        },
      },
      a: { contact: { id: contact.id, email: contact.email } },
      b: { contact: null },
    });
  });

  it('does not show related records to a key that cannot read', async () => {
    const contact = await createContact();
    const res = await server.gql(
      `mutation ($input: CreateDealInput!) { createDeal(input: $input) { id contact { email } } }`,
      { input: { title: 'Write only', currency: 'USD', contactId: contact.id } },
      { key: writeOnlyKey },
    );
    expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(res.data?.createDeal?.contact ?? null).toBeNull();
  });
});

/**
 * Counts the statements a server sends to PostgreSQL by reading the wire
 * protocol between them: a Query message, or a Bind of a statement whose Parse
 * text we saw (named statements are parsed once per connection, then only bound).
 */
class StatementCounter {
  readonly statements: string[] = [];
  private readonly server: net.Server;

  private constructor(target: URL) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      upstream.pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      const parsed = new Map<string, string>();
      let buffer = Buffer.alloc(0);
      let started = false;
      client.on('data', (chunk: Buffer) => {
        upstream.write(chunk);
        buffer = Buffer.concat([buffer, chunk]);
        for (;;) {
          if (!started) {
            // Startup, SSL and GSS requests: a length and a code, no type byte.
            if (buffer.length < 8) return;
            const length = buffer.readInt32BE(0);
            if (buffer.length < length) return;
            const code = buffer.readInt32BE(4);
            started = code !== 80877103 && code !== 80877104;
            buffer = buffer.subarray(length);
            continue;
          }
          if (buffer.length < 5) return;
          const length = buffer.readInt32BE(1);
          if (buffer.length < length + 1) return;
          const type = String.fromCharCode(buffer[0]!);
          const strings = buffer
            .subarray(5, length + 1)
            .toString('utf8')
            .split('\0');
          if (type === 'P') parsed.set(strings[0]!, strings[1]!);
          if (type === 'B') this.statements.push(parsed.get(strings[1]!) ?? '');
          if (type === 'Q') this.statements.push(strings[0]!);
          buffer = buffer.subarray(length + 1);
        }
      });
    });
  }

  static async start(target: URL): Promise<StatementCounter> {
    const counter = new StatementCounter(target);
    await new Promise<void>((resolve) => counter.server.listen(0, '127.0.0.1', resolve));
    return counter;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** The statements sent while `run` ran. */
  async during(run: () => Promise<void>): Promise<string[]> {
    const start = this.statements.length;
    await run();
    return this.statements.slice(start);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('relation fields cost one query per list', () => {
  let counter: StatementCounter;
  let counted: TestServer;
  let database: TestDatabase;
  let countedKey: string;
  let expected: Map<string, string[]>;
  const readsFrom = (table: string) => (sql: string) =>
    new RegExp(`\\bfrom\\s+("public"\\.)?"${table}"`, 'i').test(sql);

  beforeAll(async () => {
    // A server of its own whose every database connection passes through the counter.
    database = await createTestDatabase();
    const real = new URL(database.url);
    counter = await StatementCounter.start(real);
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(counter.port);
    counted = await startTestServer({}, { url: proxied.toString(), drop: database.drop });
    const organizationId = await counted.createOrganization();
    countedKey = await counted.createKey(organizationId, ['crm:read', 'crm:write']);
    expected = new Map();
    for (let i = 0; i < 50; i++) {
      const contact = await counted.request('POST', '/v1/crm/contacts', {
        key: countedKey,
        body: { email: `n1-${i}@example.com` },
      });
      const ids: string[] = [];
      for (let j = 0; j < i % 3; j++) {
        const deal = await counted.request('POST', '/v1/crm/deals', {
          key: countedKey,
          body: { title: `N+1 ${i}.${j}`, currency: 'USD', contactId: contact.body.id },
        });
        ids.push(deal.body.id);
      }
      expected.set(contact.body.id, ids);
    }
  });

  afterAll(async () => {
    await counted?.close();
    await counter?.close();
    await database?.drop();
  });

  const gql = (query: string) =>
    counted.request('POST', '/graphql', { key: countedKey, body: { query } }).then((res) => {
      expect(res.body.errors, res.text).toBeUndefined();
      return res.body.data;
    });

  it('counts one statement per request it makes (the counter sees per-row queries)', async () => {
    const ids = [...expected.values()].flat().slice(0, 3);
    const statements = await counter.during(async () => {
      await gql(`{ ${ids.map((id, i) => `d${i}: deal(id: "${id}") { id }`).join(' ')} }`);
    });
    expect(statements.filter(readsFrom('Deal'))).toHaveLength(3);
  });

  it('answers Contact.deals for 50 contacts with one deals query', async () => {
    let data: { contacts: { data: { id: string; deals: { data: { id: string }[] } }[] } } | undefined;
    const statements = await counter.during(async () => {
      data = await gql('{ contacts(limit: 50) { data { id deals { data { id } } } } }');
    });
    expect(data!.contacts.data).toHaveLength(50);
    for (const contact of data!.contacts.data) {
      expect(contact.deals.data.map((deal) => deal.id)).toEqual(expected.get(contact.id));
    }
    expect(statements.filter(readsFrom('Deal'))).toHaveLength(1);
  });

  it('pages Contact.deals with page and limit, each contact its own pages, in one deals query', async () => {
    const withDeals = [...expected].filter(([, deals]) => deals.length >= 2).slice(0, 5);
    expect(withDeals.length).toBeGreaterThan(1);
    type DealPage = {
      data: { id: string }[];
      pagination: { page: number; limit: number; total: number; pages: number };
    };
    let data: { contacts: { data: { id: string; first: DealPage; second: DealPage }[] } } | undefined;
    const page = '{ data { id } pagination { page limit total pages } }';
    const statements = await counter.during(async () => {
      data = await gql(
        `{ contacts(limit: 50) { data { id first: deals(limit: 1) ${page} second: deals(page: 2, limit: 1) ${page} } } }`,
      );
    });
    for (const contact of data!.contacts.data) {
      const deals = expected.get(contact.id) ?? [];
      expect(contact.first.data.map((deal) => deal.id)).toEqual(deals.slice(0, 1));
      expect(contact.second.data.map((deal) => deal.id)).toEqual(deals.slice(1, 2));
      // Paged as a root list is: the same pagination, the total counted past the page asked for.
      expect(contact.second.pagination).toEqual({ page: 2, limit: 1, total: deals.length, pages: deals.length });
    }
    // One query per page asked for, whatever the number of contacts.
    expect(statements.filter(readsFrom('Deal'))).toHaveLength(2);
    const refused = await counted.request('POST', '/graphql', {
      key: countedKey,
      body: { query: '{ contacts { data { deals(limit: 101) { data { id } } } } }' },
    });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
  });

  it('answers Deal.contact for a page of deals with one contacts query', async () => {
    let data: { deals: { data: { id: string; contactId: string; contact: { id: string } }[] } } | undefined;
    const statements = await counter.during(async () => {
      data = await gql('{ deals(limit: 50) { data { id contactId contact { id } } } }');
    });
    expect(data!.deals.data.length).toBeGreaterThan(40);
    for (const deal of data!.deals.data) expect(deal.contact.id).toBe(deal.contactId);
    expect(statements.filter(readsFrom('Contact'))).toHaveLength(1);
  });
});
