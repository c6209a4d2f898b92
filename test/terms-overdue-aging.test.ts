// Payment terms, overdue invoices and the receivables aging report (issue 26):
// the organization's default terms (30), a contact's own and an invoice's; the
// due date they give, a given dueDate winning, and what an update's nulls and
// moves do; `overdue` in the organization's time zone, the ?overdue= filter and
// invoice.overdue raised once by the worker's task; the aging report's totals
// against the invoices' own amountDue on random data, bucketed independently.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../src/graphql/finance/terms/days.js';
import { notifyOverdueInvoices } from '../src/graphql/finance/terms/overdue-sweep.js';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: server.databaseUrl, max: 4 });
});
afterAll(async () => {
  await pool?.end();
});

function expectError(res: TestResponse, status: number, field: string, message?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.field).toBe(field);
  if (message) expect(res.body.error.message).toMatch(message);
}

const LINES = [{ description: 'Work', quantity: 1, unitAmount: 10_000 }];

/** An organization with a finance and CRM key, and helpers over its API. */
async function company(name = 'Terms Ltd') {
  const org: TestOrg = await server.org(name);
  const key = await org.key(['finance:read', 'finance:write', 'crm:read', 'crm:write']);
  const admin = await org.key(['admin']);
  let n = 0;
  const api = {
    org,
    key,
    admin,
    async contact(body: Record<string, unknown> = {}) {
      const res = await server.rest('POST', '/v1/crm/contacts', {
        key,
        body: { email: `terms-${org.id}-${++n}@example.test`, ...body },
      });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: string; paymentTermsDays: number | null };
    },
    post: (body: Record<string, unknown>) => server.rest('POST', '/v1/finance/invoices', { key, body }),
    async invoice(contactId: string, body: Record<string, unknown> = {}) {
      const res = await api.post({ contactId, currency: 'EUR', lines: LINES, ...body });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },
    put: (id: string, body: Record<string, unknown>) => server.rest('PUT', `/v1/finance/invoices/${id}`, { key, body }),
    async open(id: string) {
      const res = await server.rest('POST', `/v1/finance/invoices/${id}/open`, { key });
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    async pay(invoice: { id: string; currency: string }, amount: number) {
      const res = await server.rest('POST', '/v1/finance/payments', {
        key,
        body: { invoiceId: invoice.id, amount, currency: invoice.currency, method: 'bank_transfer' },
      });
      expect(res.status, res.text).toBe(201);
    },
    get: async (id: string) => (await server.rest('GET', `/v1/finance/invoices/${id}`, { key })).body,
    /** The organization's date today in its time zone, plus `days`, from the database's clock. */
    async today(days = 0): Promise<string> {
      const { rows } = await pool.query<{ day: string }>(
        `select to_char((now() at time zone "timeZone")::date + $2::int, 'YYYY-MM-DD') as day
         from "Organization" where id = $1`,
        [org.id, days],
      );
      return rows[0]!.day;
    },
    setTimeZone: async (timeZone: string) => {
      const res = await server.rest('PUT', '/v1/organization', { key: admin, body: { timeZone } });
      expect(res.status, res.text).toBe(200);
    },
    /** The events about this record, oldest first. */
    async eventsOf(id: string) {
      const res = await server.rest('GET', '/v1/events?limit=100', { key: admin });
      expect(res.status, res.text).toBe(200);
      return (
        res.body.data as {
          type: string;
          actor: { type: string };
          data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
        }[]
      ).filter((event) => event.data.object.id === id);
    },
  };
  return api;
}

describe('payment terms', () => {
  it("the organization's default is 30 days; an admin changes it (0..3650) with organization.updated", async () => {
    const { org, admin, key } = await company();
    const read = await server.rest('GET', '/v1/organization', { key });
    expect(read.body).toMatchObject({ id: org.id, paymentTermsDays: 30 });
    const put = (body: unknown, withKey = admin) => server.rest('PUT', '/v1/organization', { key: withKey, body });
    const changed = await put({ paymentTermsDays: 14 });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.paymentTermsDays).toBe(14);
    for (const wrong of [-1, 3651, 1.5, '30', null])
      expectError(await put({ paymentTermsDays: wrong }), 400, 'paymentTermsDays');
    expect((await put({ paymentTermsDays: 0 })).body.paymentTermsDays).toBe(0);
    expect((await put({ paymentTermsDays: 3650 })).body.paymentTermsDays).toBe(3650);
    expect((await put({ paymentTermsDays: 7 }, key)).status).toBe(403);
    const res = await server.rest('GET', '/v1/events?type=organization.updated&limit=100', { key: admin });
    const mine = res.body.data.filter((event: { data: { object: { id: string } } }) => event.data.object.id === org.id);
    expect(mine[0].data).toEqual({ object: changed.body, previousAttributes: { paymentTermsDays: 30 } });
    const graphql = await server.gql(
      `mutation { updateOrganization(input: { paymentTermsDays: 21 }) { paymentTermsDays } }`,
      {},
      { key: admin },
    );
    expect(graphql.body.data).toEqual({ updateOrganization: { paymentTermsDays: 21 } });
  });

  it("a contact's own terms (null: the organization's), cleared with null, bounded like the organization's", async () => {
    const api = await company();
    expect((await api.contact()).paymentTermsDays).toBeNull();
    const own = await api.contact({ paymentTermsDays: 45 });
    expect(own.paymentTermsDays).toBe(45);
    const cleared = await server.rest('PUT', `/v1/crm/contacts/${own.id}`, {
      key: api.key,
      body: { paymentTermsDays: null },
    });
    expect(cleared.body.paymentTermsDays).toBeNull();
    const refused = await server.rest('POST', '/v1/crm/contacts', {
      key: api.key,
      body: { email: 'long-terms@example.test', paymentTermsDays: 3651 },
    });
    expectError(refused, 400, 'paymentTermsDays', /0 to 3650/);
  });

  it("dueDate is issueDate + the invoice's terms, else the contact's, else the organization's; a given dueDate wins", async () => {
    const api = await company();
    await server.rest('PUT', '/v1/organization', { key: api.admin, body: { paymentTermsDays: 14 } });
    const plain = await api.contact();
    const net45 = await api.contact({ paymentTermsDays: 45 });
    const issueDate = '2026-01-20';
    expect(await api.invoice(plain.id, { issueDate })).toMatchObject({ dueDate: '2026-02-03', paymentTermsDays: 14 });
    expect(await api.invoice(net45.id, { issueDate })).toMatchObject({ dueDate: '2026-03-06', paymentTermsDays: 45 });
    expect(await api.invoice(net45.id, { issueDate, paymentTermsDays: 0 })).toMatchObject({
      dueDate: issueDate,
      paymentTermsDays: 0,
    });
    // A given dueDate wins over the defaults; paymentTermsDays then shows the days it leaves.
    expect(await api.invoice(net45.id, { issueDate, dueDate: '2026-01-30' })).toMatchObject({
      dueDate: '2026-01-30',
      paymentTermsDays: 10,
    });
    // Far beyond the terms' bound is still a due date one may give.
    expect((await api.invoice(plain.id, { issueDate, dueDate: '2100-01-01' })).paymentTermsDays).toBe(
      daysBetween(issueDate, '2100-01-01'),
    );
    expect(await api.invoice(plain.id, { issueDate, dueDate: '2026-01-27', paymentTermsDays: 7 })).toMatchObject({
      dueDate: '2026-01-27',
      paymentTermsDays: 7,
    });
    const base = { contactId: plain.id, currency: 'EUR', lines: LINES, issueDate };
    expectError(
      await api.post({ ...base, dueDate: '2026-01-28', paymentTermsDays: 7 }),
      400,
      'paymentTermsDays',
      /disagree/,
    );
    expectError(await api.post({ ...base, paymentTermsDays: 3651 }), 400, 'paymentTermsDays');
    expectError(await api.post({ ...base, paymentTermsDays: -1 }), 400, 'paymentTermsDays');
    expectError(await api.post({ ...base, dueDate: '2026-01-19' }), 400, 'dueDate');
    expectError(await api.post({ ...base, issueDate: '9999-12-20' }), 400, 'issueDate', /9999-12-31/);
    expectError(await api.post({ ...base, issueDate: '9999-12-20', paymentTermsDays: 20 }), 400, 'paymentTermsDays');

    // Over GraphQL too.
    const created = await server.gql(
      `mutation ($input: CreateInvoiceInput!) { createInvoice(input: $input) { dueDate paymentTermsDays overdue } }`,
      { input: { ...base, paymentTermsDays: 60 } },
      { key: api.key },
    );
    expect(created.body.data).toEqual({
      createInvoice: { dueDate: '2026-03-21', paymentTermsDays: 60, overdue: false },
    });
  });

  it("dates a new invoice today in the organization's time zone, not UTC's", async () => {
    const api = await company();
    const contact = await api.contact();
    // Fourteen hours ahead of UTC and twelve behind: their dates differ, whatever the hour.
    for (const zone of ['Etc/GMT-14', 'Etc/GMT+12']) {
      await api.setTimeZone(zone);
      const invoice = await api.invoice(contact.id);
      expect(invoice.issueDate).toBe(await api.today());
      expect(invoice.dueDate).toBe(await api.today(30));
    }
  });

  it('an update: null resets to the default terms, a moved issueDate carries the terms, a given dueDate stays', async () => {
    const api = await company();
    const contact = await api.contact({ paymentTermsDays: 20 });
    const invoice = await api.invoice(contact.id, { issueDate: '2026-05-01', paymentTermsDays: 10 });
    expect(invoice).toMatchObject({ dueDate: '2026-05-11', paymentTermsDays: 10 });

    const moved = await api.put(invoice.id, { issueDate: '2026-05-05' });
    expect(moved.body).toMatchObject({ issueDate: '2026-05-05', dueDate: '2026-05-15', paymentTermsDays: 10 });
    // The dueDate sent back as it was is kept: the terms follow from it.
    const pinned = await api.put(invoice.id, { issueDate: '2026-05-07', dueDate: '2026-05-15' });
    expect(pinned.body).toMatchObject({ issueDate: '2026-05-07', dueDate: '2026-05-15', paymentTermsDays: 8 });
    // The terms sent back as they were are kept: the dueDate follows.
    const kept = await api.put(invoice.id, { issueDate: '2026-05-09', paymentTermsDays: 8 });
    expect(kept.body).toMatchObject({ issueDate: '2026-05-09', dueDate: '2026-05-17', paymentTermsDays: 8 });

    const terms = await api.put(invoice.id, { paymentTermsDays: 3 });
    expect(terms.body).toMatchObject({ dueDate: '2026-05-12', paymentTermsDays: 3 });
    const reset = await api.put(invoice.id, { paymentTermsDays: null });
    expect(reset.body).toMatchObject({ dueDate: '2026-05-29', paymentTermsDays: 20 }); // the contact's
    expect((await api.put(invoice.id, { dueDate: '2026-06-30' })).body.paymentTermsDays).toBe(52);
    expect((await api.put(invoice.id, { dueDate: null })).body).toMatchObject({ dueDate: '2026-05-29' });
    expectError(await api.put(invoice.id, { dueDate: '2026-06-01', paymentTermsDays: 1 }), 400, 'paymentTermsDays');
    expectError(await api.put(invoice.id, { dueDate: '2026-05-01' }), 400, 'dueDate');
    // A read invoice sent back as it is changes nothing.
    const read = await api.get(invoice.id);
    const { id: _id, ...sameBody } = read;
    const same = await api.put(invoice.id, sameBody);
    expect(same.status, same.text).toBe(200);
    expect(same.body).toEqual(read);

    const events = await api.eventsOf(invoice.id);
    const updates = events.filter((event) => event.type === 'invoice.updated');
    const previous = (i: number) => {
      const { updatedAt: _updatedAt, ...rest } = updates[i]!.data.previousAttributes!;
      return rest;
    };
    expect(previous(0)).toEqual({ issueDate: '2026-05-01', dueDate: '2026-05-11' });
    expect(previous(3)).toEqual({ dueDate: '2026-05-17', paymentTermsDays: 8 });
  });

  it('an invoice stored before terms shows the days between its dates as its terms', async () => {
    const api = await company();
    const contact = await api.contact();
    const invoice = await api.invoice(contact.id);
    // As a row written before this change: its dates alone.
    await pool.query(`update "Invoice" set "issueDate" = '2025-03-01', "dueDate" = '2025-04-15' where id = $1`, [
      invoice.id,
    ]);
    expect(await api.get(invoice.id)).toMatchObject({
      issueDate: '2025-03-01',
      dueDate: '2025-04-15',
      paymentTermsDays: 45,
    });
  });
});

describe('overdue', () => {
  it("is open, with something due, past the dueDate in the organization's time zone; ?overdue= lists by it", async () => {
    const api = await company();
    const contact = await api.contact();
    const yesterday = await api.today(-1);
    const dated = (dueDate: string) => ({ issueDate: addDays(dueDate, -30, 'issueDate'), dueDate });
    const late = await api.open((await api.invoice(contact.id, dated(yesterday))).id);
    const dueToday = await api.open((await api.invoice(contact.id, dated(await api.today()))).id);
    const draft = await api.invoice(contact.id, dated(yesterday));
    const paid = await api.open((await api.invoice(contact.id, dated(yesterday))).id);
    await api.pay(paid, paid.total);
    const voided = await api.invoice(contact.id, dated(yesterday));
    await server.rest('POST', `/v1/finance/invoices/${voided.id}/void`, { key: api.key });
    const partly = await api.open((await api.invoice(contact.id, dated(yesterday))).id);
    await api.pay(partly, 1);

    expect(late.overdue).toBe(true);
    expect(dueToday.overdue).toBe(false);
    expect((await api.get(draft.id)).overdue).toBe(false);
    expect((await api.get(paid.id)).overdue).toBe(false);
    expect((await api.get(voided.id)).overdue).toBe(false);
    expect((await api.get(partly.id)).overdue).toBe(true);

    const list = async (query: string) => {
      const res = await server.rest('GET', `/v1/finance/invoices?contactId=${contact.id}&${query}`, { key: api.key });
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((invoice: { id: string }) => invoice.id);
    };
    expect(await list('overdue=true')).toEqual([late.id, partly.id]);
    expect(await list('overdue=false')).toEqual([dueToday.id, draft.id, paid.id, voided.id]);
    expect(await list('overdue=true&status=open')).toEqual([late.id, partly.id]);
    const counted = await server.rest('GET', `/v1/finance/invoices?contactId=${contact.id}&overdue=true`, {
      key: api.key,
    });
    expect(counted.body.pagination.total).toBe(2);
    expectError(
      await server.rest('GET', '/v1/finance/invoices?overdue=yes', { key: api.key }),
      400,
      'overdue',
      /true or false/,
    );
    const graphql = await server.gql(
      `query ($contactId: ID) { invoices(overdue: true, contactId: $contactId) { data { id overdue } } }`,
      { contactId: contact.id },
      { key: api.key },
    );
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.invoices.data).toEqual([
      { id: late.id, overdue: true },
      { id: partly.id, overdue: true },
    ]);
  });

  it("follows the organization's day across a time-zone boundary, and the worker raises invoice.overdue once", async () => {
    const api = await company();
    const contact = await api.contact();
    // Due today at UTC−12: not yet overdue there; at UTC+14 that day is over (26 hours apart).
    await api.setTimeZone('Etc/GMT+12');
    const dueDate = await api.today();
    const invoice = await api.open(
      (await api.invoice(contact.id, { issueDate: addDays(dueDate, -10, 'x'), dueDate })).id,
    );
    expect(invoice.overdue).toBe(false);
    await notifyOverdueInvoices(pool);
    expect((await api.eventsOf(invoice.id)).map((event) => event.type)).toEqual(['invoice.created', 'invoice.opened']);

    await api.setTimeZone('Etc/GMT-14');
    const overdue = await api.get(invoice.id);
    expect(overdue.overdue).toBe(true);
    // Two workers at once: one event.
    const [a, b] = await Promise.all([notifyOverdueInvoices(pool), notifyOverdueInvoices(pool)]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    await notifyOverdueInvoices(pool);
    const events = await api.eventsOf(invoice.id);
    expect(events.map((event) => [event.type, event.actor.type])).toEqual([
      ['invoice.created', 'api_key'],
      ['invoice.opened', 'api_key'],
      ['invoice.overdue', 'system'],
    ]);
    const raised = events[2]!;
    expect(raised.data.object).toEqual(await api.get(invoice.id));
    expect(raised.data.object).toMatchObject({ overdue: true, status: 'open' });
    expect(raised.data.previousAttributes).toEqual({ overdue: false });
    // The day it was raised is the organization's.
    const { rows } = await pool.query(
      `select to_char("overdueNotifiedOn", 'YYYY-MM-DD') as day from "Invoice" where id = $1`,
      [invoice.id],
    );
    expect(rows[0].day).toBe(await api.today());

    // Back behind the date line it is not overdue, and once was enough: no second event when it is again.
    await api.setTimeZone('Etc/GMT+12');
    expect((await api.get(invoice.id)).overdue).toBe(false);
    await api.setTimeZone('Etc/GMT-14');
    await notifyOverdueInvoices(pool);
    expect((await api.eventsOf(invoice.id)).length).toBe(3);
  });

  it('raises nothing for a draft, a paid or a void invoice past its due date', async () => {
    const api = await company();
    const contact = await api.contact();
    const past = { issueDate: '2025-01-01', dueDate: '2025-01-31' };
    const draft = await api.invoice(contact.id, past);
    const paid = await api.open((await api.invoice(contact.id, past)).id);
    await api.pay(paid, paid.total);
    await notifyOverdueInvoices(pool);
    for (const { id } of [draft, paid]) {
      expect((await api.eventsOf(id)).some((event) => event.type === 'invoice.overdue')).toBe(false);
    }
  });
});

type Buckets = Record<'current' | 'days1to30' | 'days31to60' | 'days61to90' | 'over90', number>;
const BUCKET_OF = (late: number): keyof Buckets =>
  late <= 0 ? 'current' : late <= 30 ? 'days1to30' : late <= 60 ? 'days31to60' : late <= 90 ? 'days61to90' : 'over90';
const noBuckets = (): Buckets => ({ current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0 });

describe('GET /v1/finance/reports/receivables-aging', () => {
  /** A seeded generator, so a failure can be replayed. */
  function random(seed: number) {
    let state = seed;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    return {
      int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
      pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!,
    };
  }

  it('totals the open invoices’ amountDue by currency and contact, bucketed by days past due (random data)', async () => {
    const api = await company('Aging Ltd');
    const seed = Date.now() % 100_000;
    const rng = random(seed);
    const contacts = [
      await api.contact({ firstName: 'Ada', lastName: 'Lovelace' }),
      await api.contact({ company: 'Engines Ltd' }),
      await api.contact({}),
      await api.contact({ firstName: 'Grace', lastName: 'Hopper', paymentTermsDays: 45 }),
    ];
    const today = await api.today();
    const invoices: { id: string; contactId: string }[] = [];
    for (let i = 0; i < 40; i++) {
      const contact = rng.pick(contacts);
      const issueDate = addDays(today, -rng.int(0, 200), 'issueDate');
      const lines = Array.from({ length: rng.int(1, 3) }, () => ({
        description: 'Item',
        quantity: rng.int(1, 5),
        unitAmount: rng.int(0, 50_000),
      }));
      const invoice = await api.invoice(contact.id, {
        currency: rng.pick(['EUR', 'USD', 'JPY']),
        issueDate,
        ...(rng.int(0, 1) ? { paymentTermsDays: rng.int(0, 60) } : {}),
        lines,
      });
      invoices.push(invoice);
      const fate = rng.pick(['draft', 'open', 'open', 'partly', 'paid', 'void']);
      if (fate === 'void') await server.rest('POST', `/v1/finance/invoices/${invoice.id}/void`, { key: api.key });
      if (fate === 'draft' || fate === 'void') continue;
      const opened = await api.open(invoice.id);
      if (fate === 'partly' && opened.total > 1) await api.pay(opened, rng.int(1, opened.total - 1));
      if (fate === 'paid' && opened.total > 0) await api.pay(opened, opened.total);
    }

    // The invoices as the API shows them, and the report computed from them here.
    const all = await Promise.all(invoices.map(({ id }) => api.get(id)));
    const expected = (asOf: string) => {
      const byCurrency = new Map<
        string,
        { total: number; buckets: Buckets; contacts: Map<string, { total: number; buckets: Buckets }> }
      >();
      for (const invoice of all) {
        if (invoice.status !== 'open' || invoice.amountDue <= 0 || invoice.issueDate > asOf) continue;
        const bucket = BUCKET_OF(daysBetween(invoice.dueDate, asOf));
        let currency = byCurrency.get(invoice.currency);
        if (!currency)
          byCurrency.set(invoice.currency, (currency = { total: 0, buckets: noBuckets(), contacts: new Map() }));
        let contact = currency.contacts.get(invoice.contactId);
        if (!contact) currency.contacts.set(invoice.contactId, (contact = { total: 0, buckets: noBuckets() }));
        for (const sums of [currency, contact]) {
          sums.total += invoice.amountDue;
          sums.buckets[bucket] += invoice.amountDue;
        }
      }
      return byCurrency;
    };

    for (const asOf of [undefined, addDays(today, -60, 'asOf'), addDays(today, 45, 'asOf')]) {
      const res = await server.rest('GET', `/v1/finance/reports/receivables-aging${asOf ? `?asOf=${asOf}` : ''}`, {
        key: api.key,
      });
      expect(res.status, res.text).toBe(200);
      const report = res.body as {
        asOf: string;
        currencies: {
          currency: string;
          total: number;
          buckets: Buckets;
          contacts: { contactId: string; contactName: string; total: number; buckets: Buckets }[];
        }[];
      };
      expect(report.asOf).toBe(asOf ?? today);
      const want = expected(report.asOf);
      expect(
        report.currencies.map((c) => c.currency),
        `seed ${seed}`,
      ).toEqual([...want.keys()].sort());
      for (const currency of report.currencies) {
        const mine = want.get(currency.currency)!;
        expect({ total: currency.total, buckets: currency.buckets }, `seed ${seed}`).toEqual({
          total: mine.total,
          buckets: mine.buckets,
        });
        expect(
          Object.fromEntries(currency.contacts.map((c) => [c.contactId, { total: c.total, buckets: c.buckets }])),
        ).toEqual(Object.fromEntries(mine.contacts));
        const names = currency.contacts.map((c) => c.contactName);
        expect(names).toEqual([...names].sort());
      }
      if (!asOf) {
        // As of today: the sum of every open invoice's amountDue, per currency.
        const sums = new Map<string, number>();
        for (const invoice of all.filter((invoice) => invoice.status === 'open')) {
          sums.set(invoice.currency, (sums.get(invoice.currency) ?? 0) + invoice.amountDue);
        }
        for (const [code, sum] of sums) {
          expect(report.currencies.find((c) => c.currency === code)?.total ?? 0, `seed ${seed}`).toBe(sum);
        }
      }
    }
  });

  it('names contacts by name, else email; GraphQL answers the same; finance:read; asOf checked', async () => {
    const api = await company();
    const ada = await api.contact({ firstName: 'Ada', lastName: 'Lovelace', company: 'Engines' });
    const firm = await api.contact({ company: 'Difference Ltd' });
    const bare = await api.contact();
    const asOf = '2026-06-30';
    for (const [contact, dueDate, amount] of [
      [ada, '2026-06-30', 100],
      [ada, '2026-06-29', 200],
      [ada, '2026-05-31', 400], // 30 days
      [firm, '2026-05-30', 800], // 31 days
      [firm, '2026-04-01', 1_600], // 90 days
      [bare, '2026-03-31', 3_200], // 91 days
    ] as const) {
      const invoice = await api.invoice(contact.id, {
        issueDate: '2026-01-01',
        dueDate,
        lines: [{ description: 'x', quantity: 1, unitAmount: amount }],
      });
      await api.open(invoice.id);
    }
    // Issued after asOf: not yet a receivable then.
    await api.open((await api.invoice(ada.id, { issueDate: '2026-07-01' })).id);
    const res = await server.rest('GET', `/v1/finance/reports/receivables-aging?asOf=${asOf}`, { key: api.key });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      asOf,
      currencies: [
        {
          currency: 'EUR',
          total: 6_300,
          buckets: { current: 100, days1to30: 600, days31to60: 800, days61to90: 1_600, over90: 3_200 },
          contacts: [
            {
              contactId: ada.id,
              contactName: 'Ada Lovelace',
              total: 700,
              buckets: { current: 100, days1to30: 600, days31to60: 0, days61to90: 0, over90: 0 },
            },
            {
              contactId: firm.id,
              contactName: expect.stringMatching(/^terms-.*@example\.test$/), // a company alone is no name
              total: 2_400,
              buckets: { current: 0, days1to30: 0, days31to60: 800, days61to90: 1_600, over90: 0 },
            },
            {
              contactId: bare.id,
              contactName: expect.stringMatching(/^terms-.*@example\.test$/),
              total: 3_200,
              buckets: { current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 3_200 },
            },
          ],
        },
      ],
    });
    const graphql = await server.gql(
      `query ($asOf: Date) { receivablesAging(asOf: $asOf) { asOf currencies { currency total
        buckets { current days1to30 days31to60 days61to90 over90 }
        contacts { contactId contactName total buckets { current days1to30 days31to60 days61to90 over90 } } } } }`,
      { asOf },
      { key: api.key },
    );
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.receivablesAging).toEqual(res.body);

    const crmOnly = await api.org.key(['crm:read']);
    expect((await server.rest('GET', '/v1/finance/reports/receivables-aging', { key: crmOnly })).status).toBe(403);
    const readOnly = await api.org.key(['finance:read']);
    expect((await server.rest('GET', '/v1/finance/reports/receivables-aging', { key: readOnly })).status).toBe(200);
    for (const query of ['asOf=2026-02-30', 'asOf=tomorrow', 'as_of=2026-01-01']) {
      const refused = await server.rest('GET', `/v1/finance/reports/receivables-aging?${query}`, { key: api.key });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error.field).toBe(query.split('=')[0]);
    }
    // Another organization sees none of it.
    const other = await company();
    const empty = await server.rest('GET', `/v1/finance/reports/receivables-aging?asOf=${asOf}`, { key: other.key });
    expect(empty.body).toEqual({ asOf, currencies: [] });
  });
});
