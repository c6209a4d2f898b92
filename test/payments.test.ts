// Payments over REST and GraphQL: against an open invoice in its currency and
// at most what it owes (else 400 amount / 400 currency / 409 for a draft or
// void invoice); partial then full payment (the invoice becomes paid and
// raises invoice.paid once, its data.object the invoice as REST shows it);
// 20 concurrent payments that together exceed the total; an invoice with
// payments cannot be voided; a failed commit leaves neither change nor event.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
const MARK = 'fail-at-commit';
let key: string;
let otherKey: string;
let contactId: string;

beforeAll(async () => {
  key = await (await server.org()).key(['finance:read', 'finance:write', 'crm:write']);
  otherKey = await (await server.org()).key(['finance:read', 'finance:write', 'crm:write']);
  const contact = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'payer@example.test' } });
  contactId = contact.body.id;
  // A payment whose reference starts with the mark is refused at COMMIT, after every statement succeeded.
  await server.prisma.$executeRawUnsafe(`
    create function refuse_marked_payment() returns trigger language plpgsql as $$
    begin
      if new.reference like '${MARK}%' then raise exception 'payment % refused at commit', new.id; end if;
      return null;
    end $$`);
  await server.prisma.$executeRawUnsafe(`
    create constraint trigger refuse_marked_payment after insert on "Payment"
    deferrable initially deferred for each row execute function refuse_marked_payment()`);
});

/** An invoice of `total` minor units in `currency`, opened unless `open` is false. */
async function invoiceOf(total: number, { currency = 'EUR', open = true } = {}) {
  const res = await server.rest('POST', '/v1/finance/invoices', {
    key,
    body: { contactId, currency, lines: [{ description: 'Work', quantity: 1, unitAmount: total }] },
  });
  expect(res.status, res.text).toBe(201);
  if (!open) return res.body;
  const opened = await server.rest('POST', `/v1/finance/invoices/${res.body.id}/open`, { key });
  expect(opened.status, opened.text).toBe(200);
  return opened.body;
}

const pay = (body: Record<string, unknown>, withKey = key) =>
  server.rest('POST', '/v1/finance/payments', { key: withKey, body: { currency: 'EUR', method: 'card', ...body } });
const getInvoice = async (id: string) => (await server.rest('GET', `/v1/finance/invoices/${id}`, { key })).body;

interface EventBody {
  id: string;
  type: string;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
}

async function eventsAbout(id: string): Promise<EventBody[]> {
  const res = await server.rest('GET', '/v1/events?limit=100', { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.filter((event: EventBody) => event.data.object.id === id || event.data.object.invoiceId === id);
}

function expectRefused(res: TestResponse, status: number, code: string, field: string, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, field });
  if (message) expect(res.body.error.message).toMatch(message);
}

describe('POST /v1/finance/payments', () => {
  it('a partial then a full payment: the invoice becomes paid and raises invoice.paid once', async () => {
    const invoice = await invoiceOf(10_000);
    const partial = await pay({ invoiceId: invoice.id, amount: 4_000, reference: 'wire 1', method: 'bank_transfer' });
    expect(partial.status, partial.text).toBe(201);
    expect(partial.body).toMatchObject({
      invoiceId: invoice.id,
      amount: 4_000,
      currency: 'EUR',
      method: 'bank_transfer',
    });
    expect(partial.body.id).toMatch(/^pmt_[0-9a-z]{26}$/);
    expect(Date.parse(partial.body.receivedAt)).toBeGreaterThan(Date.now() - 60_000);
    const partlyPaid = await getInvoice(invoice.id);
    expect(partlyPaid).toMatchObject({ status: 'open', amountPaid: 4_000, amountDue: 6_000 });

    const full = await pay({ invoiceId: invoice.id, amount: 6_000, receivedAt: '2026-11-20T10:00:00.000Z' });
    expect(full.status, full.text).toBe(201);
    expect(full.body.receivedAt).toBe('2026-11-20T10:00:00.000Z');
    const paid = await getInvoice(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 10_000, amountDue: 0 });

    const events = await eventsAbout(invoice.id);
    expect(events.map((event) => event.type)).toEqual([
      'invoice.created',
      'invoice.opened',
      'payment.received',
      'invoice.paid',
      'payment.received',
    ]);
    const invoicePaid = events.find((event) => event.type === 'invoice.paid')!;
    expect(invoicePaid.data.object).toEqual(paid);
    expect(invoicePaid.data.previousAttributes).toEqual({
      amountPaid: 4_000,
      status: 'open',
      updatedAt: partlyPaid.updatedAt,
    });
    const received = events.filter((event) => event.type === 'payment.received');
    expect(received.map((event) => event.data.object)).toEqual([partial.body, full.body]);

    // Paid: nothing more is owed, and it cannot be voided.
    expectRefused(await pay({ invoiceId: invoice.id, amount: 1 }), 400, 'VALIDATION_ERROR', 'amount');
    const voided = await server.rest('POST', `/v1/finance/invoices/${invoice.id}/void`, { key });
    expectRefused(voided, 409, 'CONFLICT', 'status', /is paid/);
    const reopened = await server.rest('POST', `/v1/finance/invoices/${invoice.id}/open`, { key });
    expectRefused(reopened, 409, 'CONFLICT', 'status', /is paid/);
    const edited = await server.rest('PUT', `/v1/finance/invoices/${invoice.id}`, { key, body: { notes: 'x' } });
    expectRefused(edited, 409, 'CONFLICT', 'status', /is paid/);
  });

  it('refuses an overpayment (400 amount) and another currency (400 currency), changing nothing', async () => {
    const invoice = await invoiceOf(500);
    expectRefused(await pay({ invoiceId: invoice.id, amount: 501 }), 400, 'VALIDATION_ERROR', 'amount', /500/);
    const usd = await pay({ invoiceId: invoice.id, amount: 100, currency: 'usd' });
    expectRefused(usd, 400, 'VALIDATION_ERROR', 'currency', /EUR/);
    expect(await getInvoice(invoice.id)).toEqual(invoice);
    expect((await eventsAbout(invoice.id)).map((event) => event.type)).toEqual(['invoice.created', 'invoice.opened']);
  });

  it('refuses a payment against a draft or a void invoice (409 naming the status)', async () => {
    const draft = await invoiceOf(500, { open: false });
    expectRefused(await pay({ invoiceId: draft.id, amount: 1 }), 409, 'CONFLICT', 'invoiceId', /is draft/);
    await server.rest('POST', `/v1/finance/invoices/${draft.id}/void`, { key });
    expectRefused(await pay({ invoiceId: draft.id, amount: 1 }), 409, 'CONFLICT', 'invoiceId', /is void/);
  });

  it('refuses to void an invoice with payments (409)', async () => {
    const invoice = await invoiceOf(500);
    expect((await pay({ invoiceId: invoice.id, amount: 1 })).status).toBe(201);
    const voided = await server.rest('POST', `/v1/finance/invoices/${invoice.id}/void`, { key });
    expectRefused(voided, 409, 'CONFLICT', 'status', /payments/);
    expect((await getInvoice(invoice.id)).status).toBe('open');
  });

  it("takes an unallocated payment, and refuses another organization's invoice naming invoiceId", async () => {
    const loose = await pay({ amount: 700, method: 'cash' });
    expect(loose.status, loose.text).toBe(201);
    expect(loose.body).toMatchObject({ invoiceId: null, amount: 700, reference: null });
    const invoice = await invoiceOf(500);
    const foreign = await pay({ invoiceId: invoice.id, amount: 1 }, otherKey);
    expectRefused(foreign, 400, 'VALIDATION_ERROR', 'invoiceId', /no invoice/);
    expectRefused(await pay({ invoiceId: 'inv_nope', amount: 1 }), 400, 'VALIDATION_ERROR', 'invoiceId');
    for (const amount of [0, -5, 1.5]) {
      expectRefused(await pay({ amount }), 400, 'VALIDATION_ERROR', 'amount');
    }
    expectRefused(await pay({ amount: 1, method: 'cheque' }), 400, 'VALIDATION_ERROR', 'method');
  });

  it('20 concurrent payments exceeding the total: the accepted sum to at most the total, one invoice.paid', async () => {
    const invoice = await invoiceOf(10_000);
    // 20 × 700 = 14,000 against 10,000: at most 14 pass (9,800), then 200 is still owed.
    const amounts = Array.from({ length: 20 }, (_, i) => (i === 0 ? 200 : 700));
    const results = await Promise.all(amounts.map((amount) => pay({ invoiceId: invoice.id, amount })));
    for (const res of results) expect([201, 400], res.text).toContain(res.status);
    const accepted = results.filter((res) => res.status === 201).map((res) => res.body.amount as number);
    const sum = accepted.reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThanOrEqual(10_000);
    const after = await getInvoice(invoice.id);
    expect(after.amountPaid).toBe(sum);
    const list = await server.rest('GET', `/v1/finance/payments?invoiceId=${invoice.id}&limit=100`, { key });
    expect(list.body.pagination.total).toBe(accepted.length);
    const paidEvents = (await eventsAbout(invoice.id)).filter((event) => event.type === 'invoice.paid');
    expect(paidEvents).toHaveLength(after.status === 'paid' ? 1 : 0);

    // Whatever is left is paid by one more payment, which raises the one invoice.paid if none was.
    if (after.amountDue > 0) expect((await pay({ invoiceId: invoice.id, amount: after.amountDue })).status).toBe(201);
    expect((await getInvoice(invoice.id)).status).toBe('paid');
    expect((await eventsAbout(invoice.id)).filter((event) => event.type === 'invoice.paid')).toHaveLength(1);
  });

  it('20 concurrent payments each of the whole total: exactly one passes and one invoice.paid', async () => {
    const invoice = await invoiceOf(999);
    const results = await Promise.all(Array.from({ length: 20 }, () => pay({ invoiceId: invoice.id, amount: 999 })));
    expect(results.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of results.filter((res) => res.status !== 201)) {
      expectRefused(res, 400, 'VALIDATION_ERROR', 'amount');
    }
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'paid', amountPaid: 999 });
    expect((await eventsAbout(invoice.id)).filter((event) => event.type === 'invoice.paid')).toHaveLength(1);
  });

  it('a failed commit leaves neither the payment, the paid invoice nor an event', async () => {
    const invoice = await invoiceOf(300);
    const res = await pay({ invoiceId: invoice.id, amount: 300, reference: `${MARK} wire` });
    expect(res.status, res.text).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
    expect(await getInvoice(invoice.id)).toEqual(invoice);
    expect((await eventsAbout(invoice.id)).map((event) => event.type)).toEqual(['invoice.created', 'invoice.opened']);
    const list = await server.rest('GET', `/v1/finance/payments?invoiceId=${invoice.id}`, { key });
    expect(list.body.data).toEqual([]);
  });
});

describe('GET /v1/finance/payments', () => {
  it('filters by invoice and by the days received', async () => {
    const invoice = await invoiceOf(1_000);
    const early = await pay({ invoiceId: invoice.id, amount: 100, receivedAt: '2025-06-01T23:59:59.999Z' });
    const late = await pay({ invoiceId: invoice.id, amount: 100, receivedAt: '2025-06-02T00:00:00.000Z' });
    const ids = async (query: string) =>
      (await server.rest('GET', `/v1/finance/payments?invoiceId=${invoice.id}&${query}`, { key })).body.data.map(
        (payment: { id: string }) => payment.id,
      );
    expect(await ids('')).toEqual([early.body.id, late.body.id]);
    expect(await ids('from=2025-06-02')).toEqual([late.body.id]);
    expect(await ids('to=2025-06-01')).toEqual([early.body.id]);
    expect(await server.rest('GET', `/v1/finance/payments/${early.body.id}`, { key })).toMatchObject({
      status: 200,
      body: early.body,
    });
    expect((await server.rest('PUT', `/v1/finance/payments/${early.body.id}`, { key, body: {} })).status).toBe(405);
  });
});

describe('GraphQL', () => {
  it('pays an invoice and reads Payment.invoice and Invoice.payments', async () => {
    const invoice = await invoiceOf(250);
    const created = await server.gql(
      `mutation ($input: CreatePaymentInput!) { createPayment(input: $input) { id amount method invoice { status amountDue } } }`,
      { input: { invoiceId: invoice.id, amount: 250, currency: 'EUR', method: 'bank_transfer' } },
      { key },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createPayment).toMatchObject({
      amount: 250,
      method: 'bank_transfer',
      invoice: { status: 'paid', amountDue: 0 },
    });
    const read = await server.gql(
      `query ($id: ID!) { invoice(id: $id) { status payments(limit: 10) { data { id amount } } } }`,
      { id: invoice.id },
      { key },
    );
    expect(read.body.data.invoice).toEqual({
      status: 'paid',
      payments: { data: [{ id: created.body.data.createPayment.id, amount: 250 }] },
    });
  });
});
