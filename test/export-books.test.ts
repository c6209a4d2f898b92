import 'reflect-metadata';
// Exports for the books (issue 26): an accountant's finance:read key exports
// invoices (not contacts, not events) and only those who hold an export's scopes
// see it; amounts in major units with each currency's decimals; a UTF-8 byte
// order mark for Excel; invoice lines one row each, with the invoice's number,
// the contact's name, discounts and taxes; names beside declared references.
// Every file is written by the real worker and downloaded over REST.
import { parse as parseCsv } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedJob } from './support/file-jobs.js';
import { useServer, type TestOrg } from './support/fixtures.js';
import { useWorker } from './support/receiver.js';

type Row = Record<string, unknown>;

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
useWorker(server);
let pool: pg.Pool;
beforeAll(() => void (pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 })));
afterAll(async () => pool?.end());

const ndjson = (text: string): Row[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

const csvRecords = (text: string) => parseCsv(text, { columns: true }) as Record<string, string>[];

async function created(key: string, body: Row): Promise<Row> {
  const res = await server.rest('POST', '/v1/exports', { key, body });
  expect(res.status, res.text).toBe(202);
  return res.body as Row;
}

const completed = (key: string, id: string) => finishedJob(server, 'exports', id, key);

/** The file's bytes as sent (fetch's text() would drop a byte order mark). */
async function downloaded(key: string, id: string): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${server.url}/v1/exports/${id}/download`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Asks for an export, waits for the worker, downloads it: the export and the file's text (and bytes). */
async function exported(key: string, body: Row): Promise<{ export: Row; text: string; bytes: Buffer }> {
  const asked = await created(key, body);
  const done = await completed(key, asked.id as string);
  const file = await downloaded(key, asked.id as string);
  expect(file.status).toBe(200);
  expect(file.bytes.length).toBe(done.size);
  return { export: done, text: file.bytes.toString('utf8'), bytes: file.bytes };
}

async function post(key: string, path: string, body: Row): Promise<Row> {
  const res = await server.rest('POST', path, { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body as Row;
}

const expectRefused = (res: { status: number; body: { error: Row } }, status: number, code: string, field?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toMatchObject({ code, ...(field && { field }) });
};

describe('who may export what, and who sees an export', () => {
  let org: TestOrg;
  let admin: string;
  let accountant: string;
  beforeAll(async () => {
    org = await server.org();
    admin = await org.key(['admin']);
    accountant = await org.key(['finance:read']);
    const contact = await post(admin, '/v1/crm/contacts', { email: 'ap@acme.example', firstName: 'Ada' });
    await post(admin, '/v1/finance/invoices', {
      contactId: contact.id,
      currency: 'EUR',
      lines: [{ description: 'Consulting', quantity: 1, unitAmount: 10_710 }],
    });
  });

  it('lets a finance:read key export invoices (403 before), not contacts nor events; a crm:read key never sees it', async () => {
    const invoices = await exported(accountant, { resource: 'invoices', format: 'csv' });
    expect(invoices.export).toMatchObject({ resource: 'invoices', scopes: ['finance:read'], rowsWritten: 1 });
    expect(csvRecords(invoices.text)[0]).toMatchObject({ total: '10710', currency: 'EUR' });

    for (const [resource, scope] of [
      ['contacts', 'crm:read'],
      ['events', 'admin'],
      ['payroll-runs', 'hr:payroll'],
    ]) {
      const refused = await server.rest('POST', '/v1/exports', { key: accountant, body: { resource, format: 'csv' } });
      expectRefused(refused, 403, 'FORBIDDEN');
      expect(refused.body.error.message).toContain(`'${scope}'`);
    }
    const graphql = await server.gql(
      `mutation { createExport(input: {resource: "contacts", format: csv}) { id } }`,
      {},
      { key: accountant },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    // A key of the same organization that holds crm:read only: the invoices file is not its to see.
    const id = invoices.export.id as string;
    const crmKey = await org.key(['crm:read']);
    expect((await server.rest('GET', `/v1/exports/${id}`, { key: crmKey })).status).toBe(404);
    expect((await downloaded(crmKey, id)).status).toBe(404);
    expect((await server.rest('GET', '/v1/exports', { key: crmKey })).body.data).toEqual([]);
    // Its own contacts export is its own: the accountant does not see that one.
    const contacts = await created(crmKey, { resource: 'contacts', format: 'json' });
    expect(contacts.scopes).toEqual(['crm:read']);
    const accountantSees = await server.rest('GET', '/v1/exports', { key: accountant });
    expect(accountantSees.body.data.map((e: Row) => e.id)).toEqual([id]);
    expect((await server.rest('GET', `/v1/exports/${contacts.id}`, { key: accountant })).status).toBe(404);

    // Another finance:read key downloads it; the admin sees every export.
    const colleague = await org.key(['finance:read']);
    expect((await downloaded(colleague, id)).bytes.toString('utf8')).toBe(invoices.text);
    const all = await server.rest('GET', '/v1/exports', { key: admin });
    expect(all.body.data.map((e: Row) => e.id)).toEqual([id, contacts.id]);
  });

  it("writes a file with the scopes it depends on: an accountant's others do not keep colleagues out", async () => {
    const wide = await org.key(['finance:read', 'finance:write', 'crm:read']);
    const asked = await created(wide, { resource: 'invoice-lines', format: 'csv' });
    expect(asked.scopes).toEqual(['finance:read']);
    await completed(wide, asked.id as string);
    expect((await downloaded(accountant, asked.id as string)).status).toBe(200);
    // Asked with crm:read too, it is kept from a finance:read-only key.
    const narrow = await created(wide, { resource: 'invoices', format: 'csv', scopes: ['finance:read', 'crm:read'] });
    expect((await server.rest('GET', `/v1/exports/${narrow.id}`, { key: accountant })).status).toBe(404);
    // Still: scopes the caller lacks are refused, and the resource's read scope is required.
    expectRefused(
      await server.rest('POST', '/v1/exports', {
        key: accountant,
        body: { resource: 'invoices', format: 'csv', scopes: ['finance:read', 'hr:read'] },
      }),
      403,
      'FORBIDDEN',
      'scopes',
    );
  });
});

describe('amounts, byte order mark, invoice lines and names', () => {
  let admin: string;
  let accountant: string;
  let ada: string;
  let billing: string;
  const invoices: Record<string, Row> = {};

  beforeAll(async () => {
    const org = await server.org();
    admin = await org.key(['admin']);
    accountant = await org.key(['finance:read']);
    ada = (
      await post(admin, '/v1/crm/contacts', { email: 'ada@engines.example', firstName: 'Ada', lastName: 'Lovelace' })
    ).id as string;
    billing = (await post(admin, '/v1/crm/contacts', { email: 'billing@nameless.example' })).id as string;
    // 10710 minor units in currencies of 2, 0 and 3 decimals.
    for (const [currency, issueDate] of [
      ['EUR', '2026-03-05'],
      ['JPY', '2026-03-20'],
      ['KWD', '2026-03-31'],
    ] as const) {
      invoices[currency] = await post(admin, '/v1/finance/invoices', {
        contactId: ada,
        currency,
        issueDate,
        lines: [
          { description: `${currency} work`, quantity: 1, unitAmount: 10_710 },
          { description: `${currency} more`, quantity: 0.5, unitAmount: 3 },
        ],
      });
    }
    invoices.april = await post(admin, '/v1/finance/invoices', {
      contactId: billing,
      currency: 'EUR',
      issueDate: '2026-04-01',
      lines: [{ description: 'April', quantity: 1, unitAmount: 100 }],
    });
  });

  it('writes money in major units with the currency decimals when asked (EUR 107.10, JPY 10710, KWD 10.710)', async () => {
    const csv = await exported(accountant, { resource: 'invoices', format: 'csv', amounts: 'decimal' });
    expect(csv.export).toMatchObject({ amounts: 'decimal', bom: false });
    const byNumber = new Map(csvRecords(csv.text).map((r) => [r.number, r]));
    // 10710 + round(0.5 × 3) = 10712.
    expect(byNumber.get(invoices.EUR!.number as string)).toMatchObject({
      currency: 'EUR',
      subtotal: '107.12',
      total: '107.12',
      amountPaid: '0.00',
      amountDue: '107.12',
    });
    expect(byNumber.get(invoices.JPY!.number as string)).toMatchObject({ total: '10712', amountDue: '10712' });
    expect(byNumber.get(invoices.KWD!.number as string)).toMatchObject({ total: '10.712', amountDue: '10.712' });
    // The lines cell stays the lines as JSON, its amounts in the same units.
    expect(JSON.parse(byNumber.get(invoices.KWD!.number as string)!.lines!)).toEqual([
      expect.objectContaining({ description: 'KWD work', quantity: 1, unitAmount: '10.710', amount: '10.710' }),
      expect.objectContaining({ description: 'KWD more', quantity: 0.5, unitAmount: '0.003', amount: '0.002' }),
    ]);

    const json = ndjson(
      (await exported(accountant, { resource: 'invoices', format: 'json', amounts: 'decimal' })).text,
    );
    const eur = json.find((r) => r.id === invoices.EUR!.id)!;
    expect(eur).toMatchObject({ total: '107.12', amountDue: '107.12', amountPaid: '0.00' });
    expect((eur.lines as Row[])[0]).toMatchObject({ unitAmount: '107.10', amount: '107.10' });

    // The default is the API's minor units.
    const minor = ndjson((await exported(accountant, { resource: 'invoices', format: 'json' })).text);
    expect(minor.find((r) => r.id === invoices.KWD!.id)).toMatchObject({ total: 10_712, amountDue: 10_712 });
  });

  it('writes a payment in its currency, with the invoice number beside the invoice id', async () => {
    const opened = await server.rest('POST', `/v1/finance/invoices/${invoices.JPY!.id}/open`, { key: admin });
    expect(opened.status, opened.text).toBe(200);
    await post(admin, '/v1/finance/payments', {
      invoiceId: invoices.JPY!.id,
      amount: 1500,
      currency: 'JPY',
      method: 'card',
    });
    const { text } = await exported(accountant, { resource: 'payments', format: 'csv', amounts: 'decimal' });
    const [header] = parseCsv(text) as string[][];
    expect(header!.indexOf('invoiceNumber')).toBe(header!.indexOf('invoiceId') + 1);
    expect(csvRecords(text)).toEqual([
      expect.objectContaining({ invoiceNumber: invoices.JPY!.number, amount: '1500', currency: 'JPY' }),
    ]);
  });

  it('refuses amounts and bom it cannot honour, naming the field', async () => {
    const cases: [string, Row, string][] = [
      [accountant, { resource: 'invoices', format: 'csv', amounts: 'cents' }, 'amounts'],
      [accountant, { resource: 'invoices', format: 'csv', bom: 'yes' }, 'bom'],
      [accountant, { resource: 'invoices', format: 'json', bom: true }, 'bom'],
      [admin, { resource: 'events', format: 'json', amounts: 'decimal' }, 'amounts'],
      // A pay component's amount has no currency beside it: it cannot be written in major units.
      [admin, { resource: 'pay-components', format: 'csv', amounts: 'decimal' }, 'amounts'],
    ];
    for (const [key, body, field] of cases) {
      expectRefused(await server.rest('POST', '/v1/exports', { key, body }), 400, 'VALIDATION_ERROR', field);
    }
  });

  it('starts a csv with a UTF-8 byte order mark when asked, and not otherwise', async () => {
    const withBom = await exported(accountant, { resource: 'invoices', format: 'csv', bom: true });
    expect(withBom.export.bom).toBe(true);
    expect([...withBom.bytes.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 'i'.charCodeAt(0)]);
    expect(csvRecords(withBom.bytes.subarray(3).toString('utf8'))).toHaveLength(4);
    const without = await exported(accountant, { resource: 'invoices', format: 'csv' });
    expect(without.bytes[0]).toBe('i'.charCodeAt(0));
    expect(withBom.bytes.subarray(3).equals(without.bytes)).toBe(true);
  });

  it('writes one row per invoice line, with the invoice, the contact name, discounts and taxes', async () => {
    // Through the API: the worked example (2 × 50.00, 10% off, 19% on top), an inclusive tax, two taxes on one
    // line; then a line as written before discounts and taxes existed (no such keys), put in by hand.
    const rate = async (name: string, percentage: string, inclusive: boolean) =>
      (await post(admin, '/v1/finance/tax-rates', { name, percentage, inclusive })).id as string;
    const vat = await rate('VAT 19%', '19', false);
    const included = await rate('VAT 20% incl.', '20', true);
    const state = await rate('State 4%', '4', false);
    const city = await rate('City 4.875%', '4.875', false);
    const taxed = await post(admin, '/v1/finance/invoices', {
      contactId: billing,
      currency: 'EUR',
      issueDate: '2026-03-10',
      lines: [
        { description: 'Design', quantity: 2, unitAmount: 5000, discountPercent: '10', taxRateIds: [vat] },
        { description: 'Box, "large"', quantity: 1, unitAmount: 12_000, taxRateIds: [included] },
        { description: 'Shipping', quantity: 1, unitAmount: 10_500, discountAmount: 500, taxRateIds: [state, city] },
        { description: 'placeholder', quantity: 1, unitAmount: 1 },
      ],
    });
    const lines = (taxed.lines as Row[]).slice(0, 3);
    lines.push({ description: '=cmd|calc', quantity: 1.5, unitAmount: 10_001, amount: 15_002 });
    await pool.query(`update "Invoice" set lines = $2::jsonb where id = $1`, [taxed.id, JSON.stringify(lines)]);

    const { text, export: done } = await exported(accountant, {
      resource: 'invoice-lines',
      format: 'csv',
      amounts: 'decimal',
      bom: true,
      filters: { from: '2026-03-01', to: '2026-03-31' },
    });
    const body = text.replace(/^\uFEFF/, '');
    const [header] = parseCsv(body) as string[][];
    expect(header).toEqual([
      'invoiceId',
      'invoiceNumber',
      'invoiceStatus',
      'issueDate',
      'currency',
      'contactId',
      'contactName',
      'lineNumber',
      'description',
      'quantity',
      'unitAmount',
      'discountPercent',
      'discount',
      'amount',
      'taxRates',
      'taxAmount',
      'lineTotal',
    ]);
    const rows = csvRecords(body);
    // March's invoices only (the April one is filtered out): 3 × 2 lines and the taxed invoice's 4, in keyset order.
    expect(done).toMatchObject({ rowsTotal: 10, rowsWritten: 10 });
    expect(rows.map((r) => [r.invoiceNumber, r.lineNumber])).toEqual([
      ...['EUR', 'JPY', 'KWD'].flatMap((c) => [
        [invoices[c]!.number, '1'],
        [invoices[c]!.number, '2'],
      ]),
      ...[1, 2, 3, 4].map((n) => [taxed.number, String(n)]),
    ]);
    expect(rows[0]).toEqual({
      invoiceId: invoices.EUR!.id,
      invoiceNumber: invoices.EUR!.number,
      invoiceStatus: 'draft',
      issueDate: '2026-03-05',
      currency: 'EUR',
      contactId: ada,
      contactName: 'Ada Lovelace',
      lineNumber: '1',
      description: 'EUR work',
      quantity: '1',
      unitAmount: '107.10',
      discountPercent: '',
      discount: '0.00',
      amount: '107.10',
      taxRates: '',
      taxAmount: '0.00',
      lineTotal: '107.10',
    });
    expect(rows[2]).toMatchObject({ currency: 'JPY', unitAmount: '10710', lineTotal: '10710' });
    expect(rows[5]).toMatchObject({ currency: 'KWD', quantity: '0.5', unitAmount: '0.003', lineTotal: '0.002' });
    const [design, box, shipping, legacy] = rows.slice(6);
    // A contact without a name is named by its email.
    expect(design).toMatchObject({ contactId: billing, contactName: 'billing@nameless.example', invoiceId: taxed.id });
    expect(design).toMatchObject({
      description: 'Design',
      quantity: '2',
      unitAmount: '50.00',
      discountPercent: '10',
      discount: '10.00',
      amount: '90.00',
      taxRates: 'VAT 19%',
      taxAmount: '17.10',
      lineTotal: '107.10',
    });
    // An inclusive tax is inside the amount: the total is the amount.
    expect(box).toMatchObject({
      description: 'Box, "large"',
      amount: '120.00',
      taxRates: 'VAT 20% incl.',
      taxAmount: '20.00',
      lineTotal: '120.00',
    });
    expect(shipping).toMatchObject({
      discount: '5.00',
      amount: '100.00',
      taxRates: 'State 4%; City 4.875%',
      taxAmount: '8.88',
      lineTotal: '108.88',
    });
    // Written before discounts and taxes: none of either; a formula-like text stays neutralised.
    expect(legacy).toMatchObject({
      description: "'=cmd|calc",
      discountPercent: '',
      discount: '0.00',
      amount: '150.02',
      taxRates: '',
      taxAmount: '0.00',
      lineTotal: '150.02',
    });

    // NDJSON: numbers in minor units by default.
    const json = ndjson(
      (await exported(accountant, { resource: 'invoice-lines', format: 'json', filters: { contactId: billing } })).text,
    );
    expect(json.map((r) => r.description)).toEqual(['April', 'Design', 'Box, "large"', 'Shipping', '=cmd|calc']);
    expect(json[1]).toMatchObject({
      contactName: 'billing@nameless.example',
      discount: 1000,
      taxAmount: 1710,
      lineTotal: 10_710,
    });
    expect(json[4]).toMatchObject({ discountPercent: null, discount: 0, taxAmount: 0, lineTotal: 15_002 });

    // In the invoices export, the taxes per rate and each line's taxes are in major units too.
    const decimal = ndjson(
      (await exported(accountant, { resource: 'invoices', format: 'json', amounts: 'decimal' })).text,
    ).find((r) => r.id === taxed.id)!;
    expect(decimal.taxes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'VAT 19%', percentage: '19', taxableAmount: '90.00', amount: '17.10' }),
      ]),
    );
    expect((decimal.lines as Row[])[0]).toMatchObject({
      discountPercent: '10',
      discountAmount: null,
      discount: '10.00',
      amount: '90.00',
      taxes: [expect.objectContaining({ taxableAmount: '90.00', amount: '17.10', inclusive: false })],
    });
  });

  it('puts the name beside each declared reference, keeping every column of the REST object', async () => {
    const { text } = await exported(accountant, { resource: 'invoices', format: 'csv' });
    const [header] = parseCsv(text) as string[][];
    const rest = await server.rest('GET', `/v1/finance/invoices/${invoices.EUR!.id}`, { key: accountant });
    expect(header!.filter((column) => column !== 'contactName')).toEqual(Object.keys(rest.body));
    expect(header!.indexOf('contactName')).toBe(header!.indexOf('contactId') + 1);
    const names = new Map(csvRecords(text).map((r) => [r.id, r.contactName]));
    expect(names.get(invoices.EUR!.id as string)).toBe('Ada Lovelace');
    expect(names.get(invoices.april!.id as string)).toBe('billing@nameless.example');

    const json = ndjson((await exported(accountant, { resource: 'invoices', format: 'json' })).text);
    const eur = json.find((r) => r.id === invoices.EUR!.id)!;
    expect(eur).toEqual({ ...rest.body, contactName: 'Ada Lovelace' });
    expect(Object.keys(eur).indexOf('contactName')).toBe(Object.keys(eur).indexOf('contactId') + 1);

    // An expense names its employee, for the accountant too: the name goes with the record that names it.
    const employee = await post(admin, '/v1/hr/employees', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example',
      startDate: '2020-01-06',
    });
    await post(admin, '/v1/finance/expenses', {
      employeeId: employee.id,
      amount: 4250,
      currency: 'EUR',
      category: 'travel',
      incurredOn: '2026-03-14',
    });
    const expenses = ndjson(
      (await exported(accountant, { resource: 'expenses', format: 'json', amounts: 'decimal' })).text,
    );
    expect(expenses).toEqual([
      expect.objectContaining({ employeeId: employee.id, employeeName: 'Grace Hopper', amount: '42.50' }),
    ]);
  });
});

describe('invoice lines in keyset batches', () => {
  it('writes every line once, in order, when a batch of 1,000 rows ends inside an invoice', async () => {
    const org = await server.org();
    const admin = await org.key(['admin']);
    const contact = await post(admin, '/v1/crm/contacts', { email: 'bulk@lines.example', lastName: 'Bulk' });
    // 30 invoices of 37 lines, three per createdAt: 1,110 rows, the first batch ending on line 1 of the 28th.
    await pool.query(
      `insert into "Invoice" (id, "organizationId", number, "contactId", currency, "issueDate", "dueDate", lines,
                              subtotal, total, "createdAt", "updatedAt")
       select 'inv_' || lpad(to_hex(i), 26, '0'), $1, 'B-' || i, $2, 'EUR', date '2026-03-01', date '2026-03-31',
              (select jsonb_agg(jsonb_build_object('description', 'L' || i || '.' || n, 'quantity', 1,
                                                   'unitAmount', n, 'amount', n) order by n)
               from generate_series(1, 37) as n),
              703, 703, timestamptz '2026-03-01Z' + (i / 3) * interval '1 second', now()
       from generate_series(1, 30) as i`,
      [org.id, contact.id],
    );
    const { export: done, text } = await exported(admin, { resource: 'invoice-lines', format: 'json' });
    expect(done).toMatchObject({ rowsTotal: 1110, rowsWritten: 1110 });
    const rows = ndjson(text);
    const expected = Array.from({ length: 30 }, (_, i) =>
      Array.from({ length: 37 }, (_, n) => `L${i + 1}.${n + 1}`),
    ).flat();
    expect(rows.map((r) => r.description)).toEqual(expected);
    // The first batch's last row and the second's first: one invoice across two batches.
    expect(rows[999]).toMatchObject({ invoiceNumber: 'B-28', lineNumber: 1, contactName: 'Bulk', amount: 1 });
    expect(rows[1000]).toMatchObject({ invoiceNumber: 'B-28', lineNumber: 2, amount: 2 });
  });
});
