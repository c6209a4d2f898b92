// Corrections of receivables (issue 26), over REST: a void invoice owes
// nothing (in the API, GraphQL and the CSV export); credit notes against an
// open or paid invoice (numbered when issued, never more than the total less
// earlier credits, settling an open invoice with invoice.paid, leaving a credit
// on a paid one); refunds of payments (never more than paid less earlier
// refunds, even 20 at once; a paid invoice reopens); allocation of an
// unallocated payment (invoice.paid exactly once under concurrency); and random
// sequences of payments, credits and refunds whose invoice amounts are checked
// against a calculation of the test's own.
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { finishedJob } from './support/file-jobs.js';
import { useServer, type TestResponse } from './support/fixtures.js';
import { useWorker } from './support/receiver.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
useWorker(server);
const SCOPES = ['finance:read', 'finance:write', 'crm:write'] as const;
let key: string;
let admin: string;
let otherKey: string;
let contactId: string;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function contactOf(withKey: string) {
  const res = await server.rest('POST', '/v1/crm/contacts', {
    key: withKey,
    body: { email: `billing-${Math.random()}@example.test` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  const org = await server.org();
  key = await org.key([...SCOPES]);
  admin = await org.key(['admin']);
  otherKey = await (await server.org()).key([...SCOPES]);
  contactId = await contactOf(key);
});

const post = (path: string, body?: Body, withKey = key) =>
  server.rest('POST', `/v1/finance/${path}`, { key: withKey, body });
const get = async (path: string) => {
  const res = await server.rest('GET', `/v1/finance/${path}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const getInvoice = (id: string) => get(`invoices/${id}`);
const getPayment = (id: string) => get(`payments/${id}`);

/** An invoice of one line of `total` minor units, opened unless `open` is false. */
async function invoiceOf(total: number, { currency = 'EUR', open = true, withKey = key, contact = contactId } = {}) {
  const lines = [{ description: 'Work', quantity: 1, unitAmount: total }];
  const res = await post('invoices', { contactId: contact, currency, lines }, withKey);
  expect(res.status, res.text).toBe(201);
  if (!open) return res.body;
  const opened = await post(`invoices/${res.body.id}/open`, undefined, withKey);
  expect(opened.status, opened.text).toBe(200);
  return opened.body;
}

const pay = (body: Body) => post('payments', { currency: 'EUR', method: 'bank_transfer', ...body });

async function paid(invoiceId: string | undefined, amount: number, currency = 'EUR') {
  const res = await pay({ ...(invoiceId && { invoiceId }), amount, currency });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const refund = (paymentId: string, amount: number, reason = 'Returned') =>
  post(`payments/${paymentId}/refund`, { amount, reason });
const allocate = (paymentId: string, invoiceId: string) => post(`payments/${paymentId}/allocate`, { invoiceId });
const draftCredit = (invoiceId: string, body: Body) =>
  post('credit-notes', { invoiceId, reason: 'Goods returned', ...body });
const issue = (id: string) => post(`credit-notes/${id}/issue`);

/** A credit note of `amount` against the invoice, issued. */
async function credited(invoiceId: string, amount: number) {
  const draft = await draftCredit(invoiceId, { amount });
  expect(draft.status, draft.text).toBe(201);
  const issued = await issue(draft.body.id);
  expect(issued.status, issued.text).toBe(200);
  return issued.body;
}

/** The types of the events about a record, oldest first. */
async function historyOf(id: string): Promise<string[]> {
  const res = await server.rest('GET', `/v1/events?objectId=${id}&limit=100`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((event: { type: string }) => event.type);
}

async function eventsOf(id: string, type: string): Promise<Body[]> {
  const res = await server.rest('GET', `/v1/events?objectId=${id}&type=${type}&limit=100`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

function expectRefused(res: TestResponse, status: number, code: string, field: string, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, field });
  if (message) expect(res.body.error.message).toMatch(message);
}

describe('void', () => {
  it('a void invoice owes nothing: amountDue 0 in the API, the list, GraphQL and the CSV export', async () => {
    const draft = await invoiceOf(12_345, { open: false });
    const opened = await invoiceOf(6_789);
    for (const invoice of [draft, opened]) {
      const voided = await post(`invoices/${invoice.id}/void`);
      expect(voided.status, voided.text).toBe(200);
      expect(voided.body).toMatchObject({ status: 'void', total: invoice.total, amountDue: 0, creditBalance: 0 });
      expect(await getInvoice(invoice.id)).toEqual(voided.body);
    }
    const listed = (await get('invoices?status=void&limit=100')).data as Body[];
    expect(listed.filter((invoice) => [draft.id, opened.id].includes(invoice.id)).map((i) => i.amountDue)).toEqual([
      0, 0,
    ]);
    const read = await server.gql(
      `query ($id: ID!) { invoice(id: $id) { status amountDue } }`,
      { id: opened.id },
      { key },
    );
    expect(read.body.data.invoice).toEqual({ status: 'void', amountDue: 0 });

    const created = await server.rest('POST', '/v1/exports', {
      key: admin,
      body: { resource: 'invoices', format: 'csv', filters: { status: 'void' } },
    });
    expect(created.status, created.text).toBe(202);
    await finishedJob(server, 'exports', created.body.id as string, admin);
    const file = await server.rest('GET', `/v1/exports/${created.body.id}/download`, { key: admin });
    const rows = parseCsv(file.text, { columns: true }) as Record<string, string>[];
    expect(rows.filter((row) => [draft.id, opened.id].includes(row.id!)).map((row) => row.amountDue)).toEqual([
      '0',
      '0',
    ]);
  });

  it('is refused (409) once a credit note is issued against the invoice, as once a payment is recorded', async () => {
    const invoice = await invoiceOf(1_000);
    await credited(invoice.id, 100);
    expectRefused(await post(`invoices/${invoice.id}/void`), 409, 'CONFLICT', 'status', /credit notes/);
    const other = await invoiceOf(1_000);
    await paid(other.id, 1);
    expectRefused(await post(`invoices/${other.id}/void`), 409, 'CONFLICT', 'status', /payments/);
    expect((await getInvoice(other.id)).status).toBe('open');
  });

  it('is allowed once every payment is refunded: nothing is paid then', async () => {
    const invoice = await invoiceOf(1_000);
    const payment = await paid(invoice.id, 400);
    expect((await refund(payment.id, 400)).status).toBe(200);
    const voided = await post(`invoices/${invoice.id}/void`);
    expect(voided.status, voided.text).toBe(200);
    expect(voided.body).toMatchObject({ status: 'void', amountPaid: 0, amountDue: 0 });
  });
});

describe('credit notes', () => {
  it('a draft priced like an invoice, then issued: numbered, it lowers amountDue; the last one settles the invoice', async () => {
    const invoice = await invoiceOf(10_000);
    const lines = [{ description: 'Returned part', quantity: 1.5, unitAmount: 1_001 }]; // 1,501.5 → 1,502
    const draft = await draftCredit(invoice.id, { lines, reason: 'Damaged' });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.body).toMatchObject({
      number: null,
      invoiceId: invoice.id,
      contactId,
      currency: 'EUR',
      reason: 'Damaged',
      lines: [{ ...lines[0], amount: 1_502 }],
      amount: null,
      subtotal: 1_502,
      total: 1_502,
      status: 'draft',
      issuedAt: null,
    });
    expect(draft.body.id).toMatch(/^crn_[0-9a-z]{26}$/);
    expect((await getInvoice(invoice.id)).amountDue).toBe(10_000); // a draft counts for nothing

    const issued = await issue(draft.body.id);
    expect(issued.status, issued.text).toBe(200);
    expect(issued.body).toMatchObject({ status: 'issued', number: expect.stringMatching(/^CN-\d{6}$/) });
    expect(Date.parse(issued.body.issuedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await getInvoice(invoice.id)).toMatchObject({
      status: 'open',
      amountCredited: 1_502,
      amountDue: 8_498,
      creditBalance: 0,
    });
    expect(await historyOf(draft.body.id)).toEqual(['credit_note.created', 'credit_note.issued']);

    await paid(invoice.id, 8_000);
    const rest = await credited(invoice.id, 498);
    expect(rest).toMatchObject({ amount: 498, lines: null, total: 498 });
    const settled = await getInvoice(invoice.id);
    expect(settled).toMatchObject({ status: 'paid', amountPaid: 8_000, amountCredited: 2_000, amountDue: 0 });
    const paidEvents = await eventsOf(invoice.id, 'invoice.paid');
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0]!.data.object).toEqual(settled);
    expect(paidEvents[0]!.data.previousAttributes).toMatchObject({ amountCredited: 1_502, status: 'open' });
  });

  it("prices taxed, discounted lines by the invoice's rule: the worked example credits 107.10 and settles it", async () => {
    const rate = await post('tax-rates', { name: 'VAT', percentage: '19' });
    expect(rate.status, rate.text).toBe(201);
    const line = {
      description: 'Chairs',
      quantity: 2,
      unitAmount: 5_000,
      discountPercent: '10',
      taxRateIds: [rate.body.id],
    };
    const made = await post('invoices', { contactId, currency: 'EUR', lines: [line] });
    expect(made.body.total).toBe(10_710);
    expect((await post(`invoices/${made.body.id}/open`)).status).toBe(200);
    // The rate deactivated since: a credit of what was billed may still name it.
    expect(
      (await server.rest('PUT', `/v1/finance/tax-rates/${rate.body.id}`, { key, body: { active: false } })).status,
    ).toBe(200);
    const draft = await draftCredit(made.body.id, { lines: [line] });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.body).toMatchObject({ subtotal: 10_000, discountTotal: 1_000, taxTotal: 1_710, total: 10_710 });
    expect(draft.body.taxes).toEqual([
      { taxRateId: rate.body.id, name: 'VAT', percentage: '19', inclusive: false, taxableAmount: 9_000, amount: 1_710 },
    ]);
    expect(draft.body.lines[0]).toMatchObject({ discount: 1_000, amount: 9_000, taxes: [{ amount: 1_710 }] });
    expect((await issue(draft.body.id)).status).toBe(200);
    expect(await getInvoice(made.body.id)).toMatchObject({ status: 'paid', amountCredited: 10_710, amountDue: 0 });
    // A credit takes back only tax that was charged: another invoice's credit may name neither that rate
    // (inactive) nor an active one its invoice does not use.
    const other = await invoiceOf(20_000);
    const refusal = /the invoice does not use the tax rate/;
    expectRefused(
      await draftCredit(other.id, { lines: [line] }),
      400,
      'VALIDATION_ERROR',
      'lines.0.taxRateIds',
      refusal,
    );
    const active = await post('tax-rates', { name: 'Sales tax', percentage: '8.875' });
    const taxed = { ...line, taxRateIds: [active.body.id] };
    expectRefused(
      await draftCredit(other.id, { lines: [taxed] }),
      400,
      'VALIDATION_ERROR',
      'lines.0.taxRateIds',
      refusal,
    );
    // A plain amount credits no tax.
    const plain = await draftCredit(other.id, { amount: 5_000 });
    expect(plain.body).toMatchObject({ subtotal: 5_000, discountTotal: 0, taxTotal: 0, taxes: [], total: 5_000 });
  });

  it("lists a month's issued credit notes by from/to (UTC days of issuedAt, inclusive); a draft is in no month", async () => {
    const invoice = await invoiceOf(10_000);
    const note = await credited(invoice.id, 1_000);
    const draft = await draftCredit(invoice.id, { amount: 500 });
    expect(draft.status, draft.text).toBe(201);
    const day = (note.issuedAt as string).slice(0, 10);
    const before = new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
    const ids = async (query: string) =>
      (await get(`credit-notes?invoiceId=${invoice.id}&${query}`)).data.map((n: Body) => n.id);
    expect(await ids(`from=${day}&to=${day}`)).toEqual([note.id]);
    expect(await ids(`to=${before}`)).toEqual([]);
    expect(await ids('status=draft')).toEqual([draft.body.id]);
  });

  it('numbers issued credit notes CN-000001, … per organization, with no gap for deleted drafts', async () => {
    const own = await (await server.org()).key([...SCOPES]);
    const contact = await contactOf(own);
    const invoice = await invoiceOf(1_000, { withKey: own, contact });
    const make = async () => (await post('credit-notes', { invoiceId: invoice.id, reason: 'x', amount: 10 }, own)).body;
    const [first, dropped, second] = [await make(), await make(), await make()];
    expect((await server.rest('DELETE', `/v1/finance/credit-notes/${dropped.id}`, { key: own })).status).toBe(204);
    expect((await post(`credit-notes/${second.id}/issue`, undefined, own)).body.number).toBe('CN-000001');
    expect((await post(`credit-notes/${first.id}/issue`, undefined, own)).body.number).toBe('CN-000002');
  });

  it('never credits more than the invoice total less issued credits: 400 on the draft, 409 on issue', async () => {
    const invoice = await invoiceOf(1_000);
    expectRefused(await draftCredit(invoice.id, { amount: 1_001 }), 400, 'VALIDATION_ERROR', 'amount', /1000/);
    const lines = [{ description: 'Too much', quantity: 2, unitAmount: 501 }];
    expectRefused(await draftCredit(invoice.id, { lines }), 400, 'VALIDATION_ERROR', 'lines', /1000/);
    // Two drafts that each fit, together not: the second to be issued is refused.
    const a = (await draftCredit(invoice.id, { amount: 600 })).body;
    const b = (await draftCredit(invoice.id, { amount: 600 })).body;
    expect((await issue(a.id)).status).toBe(200);
    expectRefused(await issue(b.id), 409, 'CONFLICT', 'total', /400 left to credit/);
    expect((await get(`credit-notes/${b.id}`)).status).toBe('draft');
    expect(await getInvoice(invoice.id)).toMatchObject({ amountCredited: 600, amountDue: 400 });
    expectRefused(await draftCredit(invoice.id, { amount: 401 }), 400, 'VALIDATION_ERROR', 'amount', /400/);
    // Once paid in full, a credit is still possible up to the total less credits: it is owed back.
    await paid(invoice.id, 400);
    expect((await issue((await draftCredit(invoice.id, { amount: 400 })).body.id)).status).toBe(200);
    expect(await getInvoice(invoice.id)).toMatchObject({
      status: 'paid',
      amountCredited: 1_000,
      amountDue: 0,
      creditBalance: 400,
    });
    expectRefused(await draftCredit(invoice.id, { amount: 1 }), 400, 'VALIDATION_ERROR', 'amount', /\(0\)/);
  });

  it('10 concurrent issues of credits of 30% each: 3 pass, the invoice is credited 90%, never more', async () => {
    const invoice = await invoiceOf(1_000);
    const drafts = await Promise.all(Array.from({ length: 10 }, () => draftCredit(invoice.id, { amount: 300 })));
    const results = await Promise.all(drafts.map((draft) => issue(draft.body.id)));
    expect(results.filter((res) => res.status === 200)).toHaveLength(3);
    for (const res of results.filter((r) => r.status !== 200)) expectRefused(res, 409, 'CONFLICT', 'total');
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'open', amountCredited: 900, amountDue: 100 });
    const numbers = results.filter((res) => res.status === 200).map((res) => res.body.number);
    expect(new Set(numbers).size).toBe(3);
  });

  it('takes lines or an amount, exactly one; an open or paid invoice of the organization; its contact and currency', async () => {
    const invoice = await invoiceOf(1_000, { currency: 'USD' });
    const lines = [{ description: 'x', quantity: 1, unitAmount: 100 }];
    expectRefused(await draftCredit(invoice.id, { lines, amount: 100 }), 400, 'VALIDATION_ERROR', 'amount', /not both/);
    expectRefused(await draftCredit(invoice.id, {}), 400, 'VALIDATION_ERROR', 'lines');
    expectRefused(await draftCredit(invoice.id, { amount: 0 }), 400, 'VALIDATION_ERROR', 'amount');
    const free = [{ description: 'x', quantity: 1, unitAmount: 0 }];
    expectRefused(await draftCredit(invoice.id, { lines: free }), 400, 'VALIDATION_ERROR', 'lines', /more than 0/);
    for (const field of ['currency', 'contactId']) {
      const res = await draftCredit(invoice.id, { amount: 1, [field]: field === 'currency' ? 'EUR' : contactId });
      expectRefused(res, 400, 'VALIDATION_ERROR', field);
    }
    const draft = await invoiceOf(1_000, { open: false });
    expectRefused(await draftCredit(draft.id, { amount: 1 }), 409, 'CONFLICT', 'invoiceId', /is draft/);
    await post(`invoices/${draft.id}/void`);
    expectRefused(await draftCredit(draft.id, { amount: 1 }), 409, 'CONFLICT', 'invoiceId', /is void/);
    const foreign = await post('credit-notes', { invoiceId: invoice.id, reason: 'x', amount: 1 }, otherKey);
    expectRefused(foreign, 400, 'VALIDATION_ERROR', 'invoiceId', /no invoice/);
    const made = await draftCredit(invoice.id, { amount: 1 });
    expect(made.body).toMatchObject({ currency: 'USD', contactId });

    // An invoice voided after the draft was made: issuing it is refused.
    const doomed = await invoiceOf(500);
    const pending = (await draftCredit(doomed.id, { amount: 100 })).body;
    expect((await post(`invoices/${doomed.id}/void`)).status).toBe(200);
    expectRefused(await issue(pending.id), 409, 'CONFLICT', 'invoiceId', /is void/);
  });

  it('a draft is edited (amount and lines replace each other) and deleted; an issued one neither', async () => {
    const invoice = await invoiceOf(5_000);
    const draft = (await draftCredit(invoice.id, { lines: [{ description: 'a', quantity: 2, unitAmount: 100 }] })).body;
    const put = (body: Body) => server.rest('PUT', `/v1/finance/credit-notes/${draft.id}`, { key, body });
    const toAmount = await put({ amount: 700, reason: 'Changed' });
    expect(toAmount.status, toAmount.text).toBe(200);
    expect(toAmount.body).toMatchObject({ amount: 700, lines: null, subtotal: 700, total: 700, reason: 'Changed' });
    const toLines = await put({ lines: [{ description: 'b', quantity: 3, unitAmount: 100 }] });
    expect(toLines.body).toMatchObject({ amount: null, lines: [{ description: 'b', amount: 300 }], total: 300 });
    // Sent back as read: nothing changes.
    const { id: _id, ...asRead } = toLines.body;
    expect((await put(asRead)).body).toEqual(toLines.body);
    expectRefused(await put({ lines: null }), 400, 'VALIDATION_ERROR', 'lines');
    expectRefused(await put({ amount: 5_001 }), 400, 'VALIDATION_ERROR', 'amount');
    // Fixed when made: its own value passes (a record sent back), another is a 400.
    const elsewhere = await invoiceOf(5_000);
    expectRefused(await put({ invoiceId: elsewhere.id }), 400, 'VALIDATION_ERROR', 'invoiceId');
    expect(await historyOf(draft.id)).toEqual(['credit_note.created', 'credit_note.updated', 'credit_note.updated']);

    expect((await issue(draft.id)).status).toBe(200);
    expectRefused(await put({ reason: 'Again' }), 409, 'CONFLICT', 'status', /is issued/);
    const deleted = await server.rest('DELETE', `/v1/finance/credit-notes/${draft.id}`, { key });
    expectRefused(deleted, 409, 'CONFLICT', 'status', /is issued/);
    expectRefused(await issue(draft.id), 409, 'CONFLICT', 'status', /is issued/);

    const other = (await draftCredit(invoice.id, { amount: 1 })).body;
    expect((await server.rest('DELETE', `/v1/finance/credit-notes/${other.id}`, { key })).status).toBe(204);
    expect(await historyOf(other.id)).toEqual(['credit_note.created', 'credit_note.deleted']);
    const listed = await get(`credit-notes?invoiceId=${invoice.id}`);
    expect(listed.data.map((note: Body) => note.id)).toEqual([draft.id]);
  });

  it('against a paid invoice it leaves a credit, refunded from the payment; a further refund reopens it', async () => {
    const invoice = await invoiceOf(10_000);
    const payment = await paid(invoice.id, 10_000);
    await credited(invoice.id, 3_000);
    expect(await getInvoice(invoice.id)).toMatchObject({
      status: 'paid',
      amountPaid: 10_000,
      amountCredited: 3_000,
      amountDue: 0,
      creditBalance: 3_000,
    });
    const back = await refund(payment.id, 3_000, 'Credit note paid back');
    expect(back.status, back.text).toBe(200);
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'paid', amountPaid: 7_000, creditBalance: 0 });
    expect(await eventsOf(invoice.id, 'invoice.reopened')).toEqual([]);
    expect((await refund(payment.id, 1)).status).toBe(200);
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'open', amountPaid: 6_999, amountDue: 1 });
    expect(await eventsOf(invoice.id, 'invoice.reopened')).toHaveLength(1);
  });
});

describe('refunds', () => {
  it('records each refund on the payment; never more than the amount less earlier refunds (400 naming amount)', async () => {
    const invoice = await invoiceOf(5_000);
    const payment = await paid(invoice.id, 3_000);
    const first = await refund(payment.id, 1_000, 'Overcharged');
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id: payment.id, amount: 3_000, amountRefunded: 1_000, invoiceId: invoice.id });
    expect(first.body.refunds).toEqual([{ amount: 1_000, reason: 'Overcharged', refundedAt: first.body.updatedAt }]);
    expectRefused(await refund(payment.id, 2_001), 400, 'VALIDATION_ERROR', 'amount', /2000/);
    const second = await refund(payment.id, 2_000, 'Cancelled');
    expect(second.body.amountRefunded).toBe(3_000);
    expect(second.body.refunds.map((r: Body) => r.reason)).toEqual(['Overcharged', 'Cancelled']);
    expectRefused(await refund(payment.id, 1), 400, 'VALIDATION_ERROR', 'amount', /\b0\b/);
    expect(await getPayment(payment.id)).toEqual(second.body);
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'open', amountPaid: 0, amountDue: 5_000 });

    const events = await eventsOf(payment.id, 'payment.refunded');
    expect(events.map((event) => event.data.object)).toEqual([first.body, second.body]);
    expect(events[1]!.data.previousAttributes).toMatchObject({ refunds: first.body.refunds });
    for (const body of [{ amount: 0, reason: 'x' }, { amount: 1.5, reason: 'x' }, { amount: 1 }, { reason: 'x' }]) {
      const res = await post(`payments/${payment.id}/refund`, body);
      expect(res.status, res.text).toBe(400);
    }
  });

  it('a refund of a paid invoice’s payment reopens it (invoice.reopened); paying the rest pays it again', async () => {
    const invoice = await invoiceOf(2_000);
    const payment = await paid(invoice.id, 2_000);
    const res = await refund(payment.id, 500);
    expect(res.status, res.text).toBe(200);
    const reopened = await getInvoice(invoice.id);
    expect(reopened).toMatchObject({ status: 'open', amountPaid: 1_500, amountDue: 500 });
    const events = await eventsOf(invoice.id, 'invoice.reopened');
    expect(events).toHaveLength(1);
    expect(events[0]!.data.object).toEqual(reopened);
    expect(events[0]!.data.previousAttributes).toMatchObject({ status: 'paid', amountPaid: 2_000 });
    await paid(invoice.id, 500);
    expect((await getInvoice(invoice.id)).status).toBe('paid');
    expect(await historyOf(invoice.id)).toEqual([
      'invoice.created',
      'invoice.opened',
      'invoice.paid',
      'invoice.reopened',
      'invoice.paid',
    ]);
  });

  it('refunds an unallocated payment, leaving every invoice as it was', async () => {
    const loose = await paid(undefined, 900);
    const res = await refund(loose.id, 900);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ invoiceId: null, amountRefunded: 900 });
    expect(await historyOf(loose.id)).toEqual(['payment.received', 'payment.refunded']);
  });

  it('20 concurrent refunds of one payment never give back more than it: exactly what it was', async () => {
    const invoice = await invoiceOf(1_000);
    const payment = await paid(invoice.id, 1_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(payment.id, 150)));
    const accepted = results.filter((res) => res.status === 200);
    expect(accepted).toHaveLength(6); // 6 × 150 = 900; a 7th would be 1,050
    for (const res of results.filter((r) => r.status !== 200)) expectRefused(res, 400, 'VALIDATION_ERROR', 'amount');
    expect(await getPayment(payment.id)).toMatchObject({ amountRefunded: 900 });
    expect((await getPayment(payment.id)).refunds).toHaveLength(6);
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'open', amountPaid: 100, amountDue: 900 });
    expect(await eventsOf(invoice.id, 'invoice.reopened')).toHaveLength(1);
  });
});

describe('allocation', () => {
  it('applies an unallocated payment to an open invoice: it settles it with invoice.paid, and only once', async () => {
    const invoice = await invoiceOf(3_000);
    await paid(invoice.id, 1_000);
    const loose = await paid(undefined, 2_000);
    const res = await allocate(loose.id, invoice.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: loose.id, invoiceId: invoice.id, amount: 2_000 });
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'paid', amountPaid: 3_000, amountDue: 0 });
    expect(await historyOf(loose.id)).toEqual(['payment.received', 'payment.allocated']);
    const allocated = await eventsOf(loose.id, 'payment.allocated');
    expect(allocated[0]!.data.previousAttributes).toMatchObject({ invoiceId: null });
    expect(await eventsOf(invoice.id, 'invoice.paid')).toHaveLength(1);
    expectRefused(await allocate(loose.id, invoice.id), 409, 'CONFLICT', 'invoiceId', /allocated already/);
    const payments = await get(`payments?invoiceId=${invoice.id}`);
    expect(payments.pagination.total).toBe(2);
    expect((await server.rest('PUT', `/v1/finance/payments/${loose.id}`, { key, body: {} })).status).toBe(405);
  });

  it('applies the net amount (less refunds); refuses another currency, more than due and a closed invoice', async () => {
    const invoice = await invoiceOf(1_000);
    const loose = await paid(undefined, 1_500);
    expectRefused(await allocate(loose.id, invoice.id), 400, 'VALIDATION_ERROR', 'invoiceId', /owes 1000/);
    expect((await refund(loose.id, 900)).status).toBe(200);
    const res = await allocate(loose.id, invoice.id);
    expect(res.status, res.text).toBe(200);
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'open', amountPaid: 600, amountDue: 400 });
    // A refund after the allocation comes off the invoice.
    expect((await refund(loose.id, 100)).status).toBe(200);
    expect(await getInvoice(invoice.id)).toMatchObject({ amountPaid: 500, amountDue: 500 });

    const dollars = await paid(undefined, 10, 'USD');
    expectRefused(await allocate(dollars.id, invoice.id), 400, 'VALIDATION_ERROR', 'invoiceId', /USD/);
    const draft = await invoiceOf(1_000, { open: false });
    const euros = await paid(undefined, 10);
    expectRefused(await allocate(euros.id, draft.id), 409, 'CONFLICT', 'invoiceId', /is draft/);
    const foreign = await invoiceOf(1_000, { withKey: otherKey, contact: await contactOf(otherKey) });
    expectRefused(await allocate(euros.id, foreign.id), 400, 'VALIDATION_ERROR', 'invoiceId', /no invoice/);
    expectRefused(await allocate(euros.id, 'inv_nope'), 400, 'VALIDATION_ERROR', 'invoiceId');
    expect((await refund(euros.id, 10)).status).toBe(200);
    expectRefused(await allocate(euros.id, invoice.id), 409, 'CONFLICT', 'amount', /fully refunded/);
    expect(await getPayment(euros.id)).toMatchObject({ invoiceId: null });
  });

  it('20 unallocated payments of the whole total allocated at once: one settles it, one invoice.paid', async () => {
    const invoice = await invoiceOf(777);
    const loose = await Promise.all(Array.from({ length: 20 }, () => paid(undefined, 777)));
    const results = await Promise.all(loose.map((payment) => allocate(payment.id, invoice.id)));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) {
      expectRefused(res, 400, 'VALIDATION_ERROR', 'invoiceId');
    }
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'paid', amountPaid: 777 });
    expect(await eventsOf(invoice.id, 'invoice.paid')).toHaveLength(1);
  });

  it('one payment allocated to 10 invoices at once: it lands on exactly one', async () => {
    const invoices = await Promise.all(Array.from({ length: 10 }, () => invoiceOf(500)));
    const payment = await paid(undefined, 500);
    const results = await Promise.all(invoices.map((invoice) => allocate(payment.id, invoice.id)));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) expectRefused(res, 409, 'CONFLICT', 'invoiceId');
    const states = await Promise.all(invoices.map((invoice) => getInvoice(invoice.id)));
    expect(states.filter((invoice) => invoice.status === 'paid')).toHaveLength(1);
    expect(states.reduce((sum, invoice) => sum + invoice.amountPaid, 0)).toBe(500);
  });
});

describe('GraphQL', () => {
  it('issues a credit note, refunds and allocates, and reads Invoice.creditNotes and Payment.refunds', async () => {
    const invoice = await invoiceOf(1_000);
    const made = await server.gql(
      `mutation ($input: CreateCreditNoteInput!) { createCreditNote(input: $input) { id } }`,
      { input: { invoiceId: invoice.id, reason: 'Late', lines: [{ description: 'x', quantity: 1, unitAmount: 100 }] } },
      { key },
    );
    expect(made.errors).toBeUndefined();
    const issued = await server.gql(
      `mutation ($id: ID!) { issueCreditNote(id: $id) { status invoice { amountCredited amountDue } } }`,
      { id: made.data.createCreditNote.id },
      { key },
    );
    expect(issued.data.issueCreditNote).toEqual({ status: 'issued', invoice: { amountCredited: 100, amountDue: 900 } });
    const loose = await paid(undefined, 900);
    const allocated = await server.gql(
      `mutation ($id: ID!, $input: AllocatePaymentInput!) { allocatePayment(id: $id, input: $input) { invoice { status } } }`,
      { id: loose.id, input: { invoiceId: invoice.id } },
      { key },
    );
    expect(allocated.data.allocatePayment).toEqual({ invoice: { status: 'paid' } });
    const refunded = await server.gql(
      `mutation ($id: ID!, $input: RefundPaymentInput!) { refundPayment(id: $id, input: $input) { amountRefunded refunds { amount reason } } }`,
      { id: loose.id, input: { amount: 50, reason: 'Goodwill' } },
      { key },
    );
    expect(refunded.data.refundPayment).toEqual({ amountRefunded: 50, refunds: [{ amount: 50, reason: 'Goodwill' }] });
    const read = await server.gql(
      `query ($id: ID!) { invoice(id: $id) { status amountDue creditNotes(limit: 5) { data { total status } } } }`,
      { id: invoice.id },
      { key },
    );
    expect(read.data.invoice).toEqual({
      status: 'open',
      amountDue: 50,
      creditNotes: { data: [{ total: 100, status: 'issued' }] },
    });
  });
});

/** A small seeded generator (mulberry32), so that a failing sequence can be run again. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}

describe('random sequences of payments, allocations, credits and refunds', () => {
  it.each([1, 2, 3, 4, 5])('seed %i: the invoice shows what the test calculates after every step', async (seed) => {
    const rng = random(seed * 7919);
    const total = rng.int(1, 20_000);
    const invoice = await invoiceOf(total);
    // The test's own account of the invoice.
    let [paidIn, credits, status, paidEvents, reopenedEvents] = [0, 0, 'open', 0, 0];
    const payments: { id: string; amount: number; refunded: number }[] = [];
    const due = () => Math.max(0, total - paidIn - credits);
    const settle = () => {
      const covered = paidIn + credits >= total;
      if (status === 'open' && covered) [status, paidEvents] = ['paid', paidEvents + 1];
      if (status === 'paid' && !covered) [status, reopenedEvents] = ['open', reopenedEvents + 1];
    };
    const amountUpTo = (max: number) => (rng.int(0, 4) === 0 ? max + rng.int(1, 50) : rng.int(1, Math.max(1, max)));

    for (let step = 0; step < 14; step++) {
      const kind = rng.pick(['pay', 'pay', 'allocate', 'credit', 'refund', 'refund']);
      const where = `seed ${seed} step ${step} ${kind}`;
      if (kind === 'pay') {
        const amount = amountUpTo(due());
        const res = await pay({ invoiceId: invoice.id, amount });
        const ok = amount <= due();
        expect(res.status, `${where}: ${res.text}`).toBe(ok ? 201 : 400);
        if (ok) {
          paidIn += amount;
          payments.push({ id: res.body.id, amount, refunded: 0 });
        }
        settle();
      } else if (kind === 'allocate') {
        const amount = rng.int(1, Math.max(1, due() + 20));
        const loose = await paid(undefined, amount);
        const refunded = rng.int(0, 2) === 0 ? rng.int(0, amount) : 0;
        if (refunded) expect((await refund(loose.id, refunded)).status).toBe(200);
        const net = amount - refunded;
        const res = await allocate(loose.id, invoice.id);
        const ok = net > 0 && net <= due();
        expect(res.status, `${where}: ${res.text}`).toBe(ok ? 200 : net === 0 ? 409 : 400);
        if (ok) {
          paidIn += net;
          payments.push({ id: loose.id, amount, refunded });
        }
        settle();
      } else if (kind === 'credit') {
        const left = total - credits;
        const amount = amountUpTo(left);
        const draft = await draftCredit(invoice.id, { amount });
        const ok = amount <= left;
        expect(draft.status, `${where}: ${draft.text}`).toBe(ok ? 201 : 400);
        if (ok) {
          expect((await issue(draft.body.id)).status, where).toBe(200);
          credits += amount;
        }
        settle();
      } else {
        const payment = payments.length ? rng.pick(payments) : undefined;
        if (!payment) continue;
        const left = payment.amount - payment.refunded;
        const amount = amountUpTo(left);
        const res = await refund(payment.id, amount);
        const ok = amount <= left;
        expect(res.status, `${where}: ${res.text}`).toBe(ok ? 200 : 400);
        if (ok) {
          payment.refunded += amount;
          paidIn -= amount;
        }
        settle();
      }
      expect(await getInvoice(invoice.id), where).toMatchObject({
        total,
        status,
        amountPaid: paidIn,
        amountCredited: credits,
        amountDue: due(),
        creditBalance: Math.max(0, paidIn + credits - total),
      });
    }
    expect(await eventsOf(invoice.id, 'invoice.paid')).toHaveLength(paidEvents);
    expect(await eventsOf(invoice.id, 'invoice.reopened')).toHaveLength(reopenedEvents);
    for (const payment of payments) {
      expect(await getPayment(payment.id)).toMatchObject({ amountRefunded: payment.refunded });
    }
  });
});
