// Invoice documents: GET /v1/finance/invoices/:id/pdf answers a PDF an
// accountant can send (the organization with its legal name, address and tax
// id, the contact, number, dates, lines, totals and amount due), with its
// fonts embedded so names such as "Zoë Müller" and "Łódź" print anywhere; the
// usual 404 and 403. The renderer is pure: what other parts of finance add to
// an invoice (taxes, discounts, credits, terms) and the credit note's document
// are checked on documents built by hand, and read back as a viewer does.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  creditNoteDocument,
  invoiceDocument,
  type DocumentParties,
  type InvoiceRecord,
} from '../src/graphql/finance/documents/document.js';
import { formatMoney } from '../src/graphql/finance/documents/money.js';
import { currencyDigits } from '../src/graphql/kit/major-units.js';
import { renderDocument } from '../src/graphql/finance/documents/render.js';
import { pdfFileName } from '../src/graphql/finance/documents/routes.js';
import { useServer, type TestOrg } from './support/fixtures.js';
import { pdfFonts, pdfPages, pdfText, STANDARD_FONTS } from './support/pdf.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });

/** Text as pdf.js reads it, whitespace collapsed, so a phrase can be looked for whatever the line breaks. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

function expectEmbeddedFonts(pdf: Uint8Array) {
  const { baseFonts, fontFiles } = pdfFonts(pdf);
  expect(baseFonts.length).toBeGreaterThan(0);
  // Every font is a subset carried in the file (ABCDEF+Name), none of the 14 a reader must supply.
  for (const name of baseFonts) {
    expect(name).toMatch(/^[A-Z]{6}\+/);
    expect(STANDARD_FONTS).not.toContain(name.slice(7));
  }
  expect(fontFiles).toBe(baseFonts.length);
}

describe('formatting money', () => {
  it("writes minor units with the currency's decimals, exactly, grouped by thousands", () => {
    expect([currencyDigits('EUR'), currencyDigits('JPY'), currencyDigits('KWD')]).toEqual([2, 0, 3]);
    expect(formatMoney(10_710, 'EUR')).toBe('107.10');
    expect(formatMoney(5, 'EUR')).toBe('0.05');
    expect(formatMoney(-1_500, 'EUR')).toBe('-15.00');
    expect(formatMoney(1_500, 'JPY')).toBe('1,500');
    expect(formatMoney(1_234_567, 'KWD')).toBe('1,234.567');
    // 2^53 − 1 cents: a division in floating point would round the last digit.
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD')).toBe('90,071,992,547,409.91');
  });

  it('names the file after the number, safe in a header and on any file system', () => {
    expect(pdfFileName('INV-000001')).toBe('INV-000001.pdf');
    expect(pdfFileName('2026/07 "Müller"\r\n')).toBe('2026_07_M_ller_.pdf');
    expect(pdfFileName('../..')).toBe('document.pdf');
  });
});

const PARTIES: DocumentParties = {
  issuer: { name: 'Analytical Engines', legalName: 'Analytical Engines Ltd', address: '1 Main St\nLondon' },
  recipient: { name: 'Zoë Müller', company: 'Müller GmbH', email: 'zoe@example.test' },
};

const PLAIN_INVOICE: InvoiceRecord = {
  number: 'INV-000042',
  status: 'open',
  currency: 'EUR',
  issueDate: '2026-03-01',
  dueDate: '2026-03-31',
  lines: [{ description: 'Consulting', quantity: 2, unitAmount: 5_000, amount: 10_000 }],
  notes: null,
  subtotal: 10_000,
  total: 10_000,
  amountPaid: 0,
  amountDue: 10_000,
};

describe('the document (renderer, pure)', () => {
  it('prints an invoice without taxes, discounts, credits or terms: no empty columns or rows for them', async () => {
    const text = flat(await pdfText(await renderDocument(invoiceDocument(PLAIN_INVOICE, PARTIES))));
    expect(text).toContain('Description Qty Unit price Amount');
    expect(text).toContain('Consulting 2 50.00 100.00');
    expect(text).toContain('Total EUR 100.00');
    expect(text).toContain('Amount due EUR 100.00');
    for (const absent of ['Discount', 'Tax', 'Terms', 'Paid', 'Credited', 'NOTES']) expect(text).not.toContain(absent);
  });

  it('prints the discounts, taxes per line and per rate, terms, payments and credits when the invoice has them', async () => {
    // The issue's worked example: 2 × 50.00, 10% off, 19% VAT; and 120.00 with 20% VAT included.
    const vat = { taxRateId: 'txr_1', name: 'VAT', percentage: '19', inclusive: false };
    const included = { taxRateId: 'txr_2', name: 'UK VAT', percentage: '20', inclusive: true };
    const invoice: InvoiceRecord = {
      ...PLAIN_INVOICE,
      paymentTermsDays: 30,
      lines: [
        {
          description: 'Consulting',
          quantity: 2,
          unitAmount: 5_000,
          discountPercent: '10',
          discount: 1_000,
          amount: 9_000,
          taxes: [{ ...vat, taxableAmount: 9_000, amount: 1_710 }],
        },
        {
          description: 'Licence',
          quantity: 1,
          unitAmount: 12_000,
          discount: 0,
          amount: 12_000,
          taxes: [{ ...included, taxableAmount: 10_000, amount: 2_000 }],
        },
      ],
      subtotal: 22_000,
      discountTotal: 1_000,
      taxes: [
        { ...vat, taxableAmount: 9_000, amount: 1_710 },
        { ...included, taxableAmount: 10_000, amount: 2_000 },
      ],
      taxTotal: 3_710,
      total: 22_710,
      amountPaid: 5_000,
      amountCredited: 2_710,
      amountDue: 15_000,
      notes: 'Zahlbar innerhalb von 30 Tagen.',
    };
    const text = flat(await pdfText(await renderDocument(invoiceDocument(invoice, PARTIES))));
    expect(text).toContain('Description Qty Unit price Discount Tax Amount');
    expect(text).toContain('Consulting 2 50.00 -10.00 (10%) VAT 19% 90.00');
    expect(text).toContain('Licence 1 120.00 UK VAT 20% incl. 120.00');
    expect(text).toContain('Terms Net 30 days');
    expect(text).toContain('Subtotal 220.00 Discount -10.00');
    expect(text).toContain('VAT 19% on 90.00 17.10');
    expect(text).toContain('UK VAT 20% on 100.00, included 20.00');
    expect(text).toContain('Total EUR 227.10 Paid -50.00 Credited -27.10 Amount due EUR 150.00');
    expect(text).toContain('NOTES Zahlbar innerhalb von 30 Tagen.');
  });

  it('says on its face that a draft is not a valid invoice, and that a void one is void', async () => {
    const draft = flat(
      await pdfText(await renderDocument(invoiceDocument({ ...PLAIN_INVOICE, status: 'draft' }, PARTIES))),
    );
    expect(draft).toContain('Draft: not a valid invoice');
    const voided = flat(
      await pdfText(await renderDocument(invoiceDocument({ ...PLAIN_INVOICE, status: 'void' }, PARTIES))),
    );
    expect(voided).toContain('INV-000042 Void');
  });

  it("prints a credit note: its number, the invoice it credits, the date in the organization's zone, the reason", async () => {
    const note = creditNoteDocument(
      {
        number: 'CN-000001',
        status: 'issued',
        currency: 'EUR',
        reason: 'Returned goods',
        amount: 2_500,
        // 23:30 UTC is the next day in Berlin.
        issuedAt: '2026-03-31T23:30:00.000Z',
        subtotal: 2_500,
        total: 2_500,
      },
      { ...PARTIES, invoiceNumber: 'INV-000042', timeZone: 'Europe/Berlin' },
    );
    const text = flat(await pdfText(await renderDocument(note)));
    expect(text).toContain('Credit note CN-000001');
    expect(text).toContain('CREDIT TO Zoë Müller');
    expect(text).toContain('Invoice INV-000042 Date 2026-04-01');
    expect(text).toContain('Reason Returned goods');
    expect(text).toContain('Returned goods 1 25.00 25.00');
    expect(text).toContain('Total credited EUR 25.00');
    expect(text).not.toContain('Amount due');
  });

  it('runs a long invoice over pages, the table header on each, every page numbered', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => ({
      description: `Line ${i + 1}${i % 10 === 0 ? ': a description long enough to wrap in its column, twice or more' : ''}`,
      quantity: 1,
      unitAmount: 100,
      amount: 100,
    }));
    const pdf = await renderDocument(
      invoiceDocument({ ...PLAIN_INVOICE, lines, subtotal: 10_000, total: 10_000, amountDue: 10_000 }, PARTIES),
    );
    const pages = (await pdfPages(pdf)).map(flat);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, i) => {
      if (/Line \d+ 1 1\.00/.test(page)) expect(page).toContain('Description Qty Unit price Amount');
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    const text = pages.join(' ');
    expect(text).toContain('Line 100 1 1.00 1.00');
    expectEmbeddedFonts(pdf);
  });
});

describe('GET /v1/finance/invoices/:id/pdf', () => {
  let org: TestOrg;
  let writer: string;
  let reader: string;
  let invoice: { id: string; number: string };

  const download = (id: string, key?: string) =>
    fetch(`${server.url}/v1/finance/invoices/${id}/pdf`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

  async function createInvoice(lines: object[], key = writer) {
    const contact = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: {
        firstName: 'Zoë',
        lastName: 'Müller',
        company: 'Müller GmbH',
        email: `zoe-${Math.random()}@example.test`,
      },
    });
    expect(contact.status, contact.text).toBe(201);
    const created = await server.rest('POST', '/v1/finance/invoices', {
      key,
      body: {
        contactId: contact.body.id,
        currency: 'EUR',
        issueDate: '2026-03-01',
        dueDate: '2026-03-31',
        lines,
        notes: 'Merci — payable à 30 jours.',
      },
    });
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  beforeAll(async () => {
    org = await server.org('Analytical Engines');
    writer = await org.key(['finance:read', 'finance:write', 'crm:write']);
    // An accountant's key: finance only, no CRM scope.
    reader = await org.key(['finance:read']);
    const settings = await server.rest('PUT', '/v1/organization', {
      key: await org.key(['admin']),
      body: {
        legalName: 'Analytical Engines Sp. z o.o.',
        address: 'ul. Piotrkowska 1\n90-001 Łódź',
        taxId: 'PL1234567890',
      },
    });
    expect(settings.status, settings.text).toBe(200);
    invoice = await createInvoice([
      { description: 'Beratung in Łódź', quantity: 1.5, unitAmount: 10_001 },
      { description: 'Travel', quantity: 1, unitAmount: 4_999 },
    ]);
    expect((await server.rest('POST', `/v1/finance/invoices/${invoice.id}/open`, { key: writer })).status).toBe(200);
    const paid = await server.rest('POST', '/v1/finance/payments', {
      key: writer,
      body: { invoiceId: invoice.id, amount: 1_000, currency: 'EUR', method: 'bank_transfer' },
    });
    expect(paid.status, paid.text).toBe(201);
  });

  it('answers the invoice as a PDF named after its number, not to be cached', async () => {
    const res = await download(invoice.id, reader);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.number}.pdf"`);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(pdf.length);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expectEmbeddedFonts(pdf);
  });

  it('prints the organization, the contact, the number, dates, lines, totals and the amount due', async () => {
    const json = (await server.rest('GET', `/v1/finance/invoices/${invoice.id}`, { key: reader })).body;
    const text = flat(await pdfText(new Uint8Array(await (await download(invoice.id, reader)).arrayBuffer())));
    expect(text).toContain('Analytical Engines Sp. z o.o. ul. Piotrkowska 1 90-001 Łódź Tax ID: PL1234567890');
    expect(text).toContain(`Invoice ${json.number}`);
    expect(text).toContain('BILL TO Zoë Müller Müller GmbH zoe-');
    // The terms are the invoice's (issue 26: dueDate − issueDate), printed beside its dates.
    expect(text).toContain('Issue date 2026-03-01 Due date 2026-03-31 Terms Net 30 days Currency EUR');
    // 1.5 × 100.01 = 150.015, half up: 150.02 (the JSON's amount, the same source).
    expect(json.lines[0].amount).toBe(15_002);
    expect(text).toContain('Beratung in Łódź 1.5 100.01 150.02');
    expect(text).toContain('Travel 1 49.99 49.99');
    expect(json).toMatchObject({ total: 20_001, amountPaid: 1_000, amountDue: 19_001 });
    expect(text).toContain('Total EUR 200.01 Paid -10.00 Amount due EUR 190.01');
    expect(text).toContain('NOTES Merci — payable à 30 jours.');
  });

  it('is 404 in the usual envelope for an unknown id and for another organization’s invoice', async () => {
    const other = await server.org('Other');
    const theirs = await createInvoice(
      [{ description: 'Theirs', quantity: 1, unitAmount: 100 }],
      await other.key(['finance:read', 'finance:write', 'crm:write']),
    );
    for (const id of [theirs.id, 'inv_01jzzzzzzzzzzzzzzzzzzzzzzz']) {
      const res = await download(id, reader);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).error).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('needs finance:read (403 naming it) and a credential (401)', async () => {
    const res = await download(invoice.id, await org.key(['crm:read', 'crm:write', 'hr:read']));
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error.code).toBe('FORBIDDEN');
    expect(body.error.message).toContain('finance:read');
    expect((await download(invoice.id)).status).toBe(401);
  });

  it('answers an issued credit note as a PDF: its number, the invoice it credits, the reason, the total', async () => {
    const credit = await server.rest('POST', '/v1/finance/credit-notes', {
      key: writer,
      body: { invoiceId: invoice.id, reason: 'Travel not taken', amount: 4_999 },
    });
    expect(credit.status, credit.text).toBe(201);
    const issued = await server.rest('POST', `/v1/finance/credit-notes/${credit.body.id}/issue`, { key: writer });
    expect(issued.status, issued.text).toBe(200);
    const res = await fetch(`${server.url}/v1/finance/credit-notes/${credit.body.id}/pdf`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${issued.body.number}.pdf"`);
    const pdf = new Uint8Array(await res.arrayBuffer());
    expectEmbeddedFonts(pdf);
    const text = flat(await pdfText(pdf));
    expect(text).toContain(`Credit note ${issued.body.number}`);
    expect(text).toContain(invoice.number);
    expect(text).toContain('Travel not taken');
    expect(text).toContain('EUR 49.99');
    const missing = await fetch(`${server.url}/v1/finance/credit-notes/crn_01jzzzzzzzzzzzzzzzzzzzzzzz/pdf`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(missing.status).toBe(404);
  });

  it('makes a 100-line invoice in well under a second, a few tens of kilobytes', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => ({
      description: `Item ${i + 1}: Ærøskøbing delivery, Zoë Müller's order`,
      quantity: 3,
      unitAmount: 1_234 + i,
    }));
    const big = await createInvoice(lines);
    await download(big.id, reader); // the first document of the process reads the fonts
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await download(big.id, reader);
      size = (await res.arrayBuffer()).byteLength;
      times.push(performance.now() - started);
      expect(res.status).toBe(200);
    }
    const median = times.sort((a, b) => a - b)[2]!;
    console.log(`100-line invoice PDF: ${size} bytes, median ${median.toFixed(0)} ms over 5 requests`);
    expect(median).toBeLessThan(1_000);
    expect(size).toBeLessThan(200_000);
  });
});

describe('GET/PUT /v1/organization: the details printed on documents', () => {
  it('takes a legal name, an address and a tax id, and clears them with null', async () => {
    const org = await server.org('Details');
    const admin = await org.key(['admin']);
    const put = (body: object) => server.rest('PUT', '/v1/organization', { key: admin, body });
    expect((await server.rest('GET', '/v1/organization', { key: admin })).body).toMatchObject({
      legalName: null,
      address: null,
      taxId: null,
    });
    const set = await put({ legalName: 'Details GmbH', address: 'Hauptstraße 1\n10115 Berlin', taxId: 'DE123456789' });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      legalName: 'Details GmbH',
      address: 'Hauptstraße 1\n10115 Berlin',
      taxId: 'DE123456789',
    });
    const cleared = await put({ address: null });
    expect(cleared.body).toMatchObject({ legalName: 'Details GmbH', address: null, taxId: 'DE123456789' });
    for (const [field, body] of [
      ['legalName', { legalName: '' }],
      ['taxId', { taxId: 'x'.repeat(51) }],
      ['address', { address: 12 }],
    ] as const) {
      const res = await put(body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
  });
});
