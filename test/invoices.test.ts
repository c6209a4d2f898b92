// Invoices over REST and GraphQL: the amounts computed by the service (each
// line quantity × unitAmount rounded half up; never taken from the client),
// the number assigned in sequence (no duplicates under concurrent creates),
// the dates, the contact of the organization, the draft → open / void
// lifecycle with its refusals naming the state, the q search, and events whose
// data.object is the REST answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { lineAmount } from '../src/graphql/finance/invoice/amounts.js';
import { addDays } from '../src/graphql/finance/terms/days.js';
import { useServer, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let key: string;
let otherKey: string;
let contactId: string;

async function contactOf(withKey: string) {
  const res = await server.rest('POST', '/v1/crm/contacts', {
    key: withKey,
    body: { email: `billing-${Math.random()}@example.test` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  key = await (await server.org()).key(['finance:read', 'finance:write', 'crm:read', 'crm:write']);
  otherKey = await (await server.org()).key(['finance:read', 'finance:write', 'crm:read', 'crm:write']);
  contactId = await contactOf(key);
});

const LINES = [
  { description: 'Consulting', quantity: 1.5, unitAmount: 10_001 }, // 15,001.5 -> 15,002
  { description: 'Travel', quantity: 0.333, unitAmount: 1_000 }, // 333
  { description: 'Licences', quantity: 3, unitAmount: 2_500 }, // 7,500
];

/** What a line without discount or tax shows besides its own fields and amount (issue 26). */
const UNDISCOUNTED = { discountPercent: null, discountAmount: null, discount: 0, taxRateIds: [], taxes: [] };

const post = (body: Record<string, unknown>, withKey = key) =>
  server.rest('POST', '/v1/finance/invoices', { key: withKey, body });

async function createInvoice(body: Record<string, unknown> = {}) {
  const res = await post({ contactId, currency: 'usd', lines: LINES, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const put = (id: string, body: unknown) => server.rest('PUT', `/v1/finance/invoices/${id}`, { key, body });
const act = (id: string, action: string) => server.rest('POST', `/v1/finance/invoices/${id}/${action}`, { key });
const get = async (id: string) => (await server.rest('GET', `/v1/finance/invoices/${id}`, { key })).body;

async function eventsOf(id: string) {
  const res = await server.rest('GET', '/v1/events?limit=100', { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.filter((event: { data: { object: { id: string } } }) => event.data.object.id === id);
}

function expectRefused(res: TestResponse, status: number, code: string, field: string, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, field });
  if (message) expect(res.body.error.message).toMatch(message);
}

describe('line amounts (quantity × unitAmount, half up to the minor unit, exact)', () => {
  it('rounds an exact half up, and is exact where floating point is not', () => {
    expect(lineAmount(1.5, 10_001)).toBe(15_002n); // 15,001.5
    expect(lineAmount(0.5, 1)).toBe(1n); // 0.5
    expect(lineAmount(0.5, 3)).toBe(2n); // 1.5 (not to even)
    expect(lineAmount(0.001, 499)).toBe(0n); // 0.499
    expect(lineAmount(1.005, 1_000)).toBe(1_005n); // 1.005 × 1000 is 1004.999… in floating point
    expect(lineAmount(1_000_000_000, 9_007_199)).toBe(9_007_199_000_000_000n);
  });
});

describe('POST /v1/finance/invoices', () => {
  it('computes the lines, subtotal and total; draft, numbered, dated today; invoice.created is the answer', async () => {
    const invoice = await createInvoice({ notes: 'Thanks' });
    expect(invoice).toMatchObject({
      currency: 'USD',
      status: 'draft',
      subtotal: 22_835,
      total: 22_835,
      amountPaid: 0,
      amountDue: 22_835,
      notes: 'Thanks',
      lines: [
        { ...LINES[0], amount: 15_002 },
        { ...LINES[1], amount: 333 },
        { ...LINES[2], amount: 7_500 },
      ],
    });
    expect(invoice.id).toMatch(/^inv_[0-9a-z]{26}$/);
    expect(invoice.number).toMatch(/^INV-\d{6}$/);
    const today = new Date().toISOString().slice(0, 10);
    expect(invoice.issueDate).toBe(today);
    // Due after the organization's default terms, 30 days (issue 26; it was the issue date).
    expect(invoice).toMatchObject({ dueDate: addDays(today, 30, 'dueDate'), paymentTermsDays: 30, overdue: false });
    expect(await get(invoice.id)).toEqual(invoice);
    const events = await eventsOf(invoice.id);
    expect(events.map((event: { type: string }) => event.type)).toEqual(['invoice.created']);
    expect(events[0].data.object).toEqual(invoice);
  });

  it('refuses the computed fields in a body and a wrong line amount (issue 23); takes a line amount sent back', async () => {
    const base = { contactId, currency: 'EUR', lines: LINES };
    for (const [field, value] of [
      ['total', 1],
      ['subtotal', 1],
      ['amountPaid', 5],
      ['amountDue', 7],
    ] as const) {
      expectRefused(await post({ ...base, [field]: value }), 400, 'VALIDATION_ERROR', field);
    }
    const wrong = [{ description: 'One', quantity: 2, unitAmount: 50, amount: 1 }];
    expectRefused(await post({ ...base, lines: wrong }), 400, 'VALIDATION_ERROR', 'lines.0.amount');
    const invoice = await createInvoice({
      lines: [{ description: 'One', quantity: 2, unitAmount: 50, amount: 100 }],
    });
    expect(invoice).toMatchObject({ subtotal: 100, total: 100, amountPaid: 0, amountDue: 100 });
    expect(invoice.lines).toEqual([{ description: 'One', quantity: 2, unitAmount: 50, amount: 100, ...UNDISCOUNTED }]);
  });

  it('refuses bad lines, dates and currencies naming the field', async () => {
    const base = { contactId, currency: 'EUR', lines: LINES };
    expectRefused(await post({ ...base, lines: [] }), 400, 'VALIDATION_ERROR', 'lines');
    const many = Array.from({ length: 101 }, () => LINES[0]);
    expectRefused(await post({ ...base, lines: many }), 400, 'VALIDATION_ERROR', 'lines');
    for (const quantity of [0, -1, 1.0001, 0.1 + 0.2, '1']) {
      const res = await post({ ...base, lines: [{ description: 'x', quantity, unitAmount: 1 }] });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.field).toMatch(/^lines/);
    }
    const fraction = await post({ ...base, lines: [{ description: 'x', quantity: 1, unitAmount: 1.5 }] });
    expect(fraction.status, fraction.text).toBe(400);
    const huge = [{ description: 'x', quantity: 1_000_000_000, unitAmount: Number.MAX_SAFE_INTEGER }];
    expectRefused(await post({ ...base, lines: huge }), 400, 'VALIDATION_ERROR', 'lines', /exceed/);
    const early = { ...base, issueDate: '2026-03-10', dueDate: '2026-03-09' };
    expectRefused(await post(early), 400, 'VALIDATION_ERROR', 'dueDate');
    expectRefused(await post({ ...base, currency: 'EURO' }), 400, 'VALIDATION_ERROR', 'currency');
    const dated = await createInvoice({ issueDate: '2026-03-10' });
    expect(dated).toMatchObject({ issueDate: '2026-03-10', dueDate: '2026-04-09', paymentTermsDays: 30 });
  });

  it("refuses another organization's contact, naming contactId", async () => {
    const foreign = await contactOf(otherKey);
    const res = await post({ contactId: foreign, currency: 'EUR', lines: LINES });
    expectRefused(res, 400, 'VALIDATION_ERROR', 'contactId', /no contact/);
    expectRefused(
      await post({ contactId: 'con_x', currency: 'EUR', lines: LINES }),
      400,
      'VALIDATION_ERROR',
      'contactId',
    );
  });

  it('numbers in sequence, skips a number taken by hand, refuses a duplicate, and never repeats under concurrency', async () => {
    const first = await createInvoice();
    const n = Number(first.number.slice(4));
    const byHand = `INV-${String(n + 1).padStart(6, '0')}`;
    expect((await createInvoice({ number: byHand })).number).toBe(byHand);
    expect((await createInvoice()).number).toBe(`INV-${String(n + 2).padStart(6, '0')}`);
    expectRefused(await post({ contactId, currency: 'EUR', lines: LINES, number: byHand }), 409, 'CONFLICT', 'number');

    const results = await Promise.all(
      Array.from({ length: 20 }, () => post({ contactId, currency: 'EUR', lines: LINES })),
    );
    for (const res of results) expect(res.status, res.text).toBe(201);
    const numbers = results.map((res) => res.body.number as string);
    expect(new Set(numbers).size).toBe(20);
  });
});

describe('GET /v1/finance/invoices', () => {
  it('filters by status, contact, issue dates and q over the number and the lines', async () => {
    const contact = await contactOf(key);
    const a = await createInvoice({
      contactId: contact,
      issueDate: '2025-01-05',
      lines: [{ description: 'Zebra feed', quantity: 1, unitAmount: 1 }],
    });
    const b = await createInvoice({ contactId: contact, issueDate: '2025-02-05', number: 'SPECIAL-7' });
    await act(b.id, 'open');
    const list = async (query: string) => {
      const res = await server.rest('GET', `/v1/finance/invoices?contactId=${contact}&${query}`, { key });
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((invoice: { id: string }) => invoice.id);
    };
    expect(await list('')).toEqual([a.id, b.id]);
    expect(await list('status=open')).toEqual([b.id]);
    expect(await list('from=2025-02-01')).toEqual([b.id]);
    expect(await list('to=2025-01-31')).toEqual([a.id]);
    expect(await list('q=zebra')).toEqual([a.id]);
    expect(await list('q=special-7')).toEqual([b.id]);
    const bad = await server.rest('GET', '/v1/finance/invoices?status=paidish', { key });
    expectRefused(bad, 400, 'VALIDATION_ERROR', 'status');
  });
});

describe('lifecycle', () => {
  it('edits a draft (recomputing the lines), then open refuses edits naming the state', async () => {
    const invoice = await createInvoice();
    const edited = await put(invoice.id, {
      lines: [{ description: 'Only', quantity: 0.5, unitAmount: 3 }],
      dueDate: '2099-01-01',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ subtotal: 2, total: 2, amountDue: 2, dueDate: '2099-01-01' });
    expect(edited.body.lines).toEqual([
      { description: 'Only', quantity: 0.5, unitAmount: 3, amount: 2, ...UNDISCOUNTED },
    ]);
    const reset = await put(invoice.id, { dueDate: null });
    // Reset to the default: the issue date plus the organization's 30 days (issue 26; it was the issue date).
    expect(reset.body.dueDate).toBe(addDays(reset.body.issueDate, 30, 'dueDate'));
    expectRefused(await put(invoice.id, { dueDate: '2000-01-01' }), 400, 'VALIDATION_ERROR', 'dueDate');
    expectRefused(await put(invoice.id, { status: 'open' }), 400, 'VALIDATION_ERROR', 'status', /open/);

    const opened = await act(invoice.id, 'open');
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.status).toBe('open');
    expectRefused(
      await put(invoice.id, { notes: 'late' }),
      409,
      'CONFLICT',
      'status',
      /is open; it can be edited only while draft/,
    );
    expectRefused(await act(invoice.id, 'open'), 409, 'CONFLICT', 'status', /is open/);
    const voided = await act(invoice.id, 'void');
    expect(voided.status, voided.text).toBe(200);
    expect(voided.body.status).toBe('void');
    expectRefused(await act(invoice.id, 'void'), 409, 'CONFLICT', 'status', /is void/);
    expectRefused(await act(invoice.id, 'open'), 409, 'CONFLICT', 'status', /is void/);
    expectRefused(await put(invoice.id, { notes: 'x' }), 409, 'CONFLICT', 'status', /is void/);
    // Each edit, and each action, raises its event.
    expect((await eventsOf(invoice.id)).map((event: { type: string }) => event.type)).toEqual([
      'invoice.created',
      'invoice.updated',
      'invoice.updated',
      'invoice.opened',
      'invoice.voided',
    ]);
  });

  it('voids a draft', async () => {
    const invoice = await createInvoice();
    const voided = await act(invoice.id, 'void');
    expect(voided.body.status).toBe('void');
  });

  it('takes back a read draft as it was (the computed fields ignored)', async () => {
    const invoice = await createInvoice();
    const res = await put(invoice.id, invoice);
    expect(res.status, res.text).toBe(200);
    expect({ ...res.body, updatedAt: null }).toEqual({ ...invoice, updatedAt: null });
  });

  it('keeps a contact with invoices: deleting it is a 409', async () => {
    const contact = await contactOf(key);
    await createInvoice({ contactId: contact });
    const res = await server.rest('DELETE', `/v1/crm/contacts/${contact}`, { key });
    expect(res.status, res.text).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect((await server.rest('GET', `/v1/crm/contacts/${contact}`, { key })).status).toBe(200);
  });

  it("does not show or change another organization's invoice", async () => {
    const invoice = await createInvoice();
    const res = await server.rest('GET', `/v1/finance/invoices/${invoice.id}`, { key: otherKey });
    expect(res.status).toBe(404);
    expect((await server.rest('POST', `/v1/finance/invoices/${invoice.id}/open`, { key: otherKey })).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('creates, opens and reads an invoice with its contact', async () => {
    const created = await server.gql(
      `mutation ($input: CreateInvoiceInput!) { createInvoice(input: $input) { id number total lines { quantity amount } status } }`,
      { input: { contactId, currency: 'EUR', lines: [{ description: 'GQL', quantity: 2.5, unitAmount: 3 }] } },
      { key },
    );
    expect(created.body.errors).toBeUndefined();
    const invoice = created.body.data.createInvoice;
    expect(invoice).toMatchObject({ total: 8, lines: [{ quantity: 2.5, amount: 8 }], status: 'draft' });
    const opened = await server.gql(
      `mutation ($id: ID!) { openInvoice(id: $id) { status } }`,
      { id: invoice.id },
      { key },
    );
    expect(opened.body.data.openInvoice.status).toBe('open');
    const read = await server.gql(
      `query ($id: ID!) { invoice(id: $id) { number contact { id } payments { data { id } } } }`,
      { id: invoice.id },
      { key },
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.invoice).toEqual({
      number: invoice.number,
      contact: { id: contactId },
      payments: { data: [] },
    });
  });
});
