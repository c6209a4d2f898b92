// The accountant's desk: the invoice editor's totals are the server's (the
// same pricing code, checked against invoices the API makes), the finance
// documents download with the sign-in session, and in a real browser (Debian's
// chromium through playwright-core) against a real server and database: an
// invoice made in the editor with two lines, a discount and a tax, opened,
// paid in two payments, a credit note issued on another, a payment refunded
// and another allocated, the PDF downloaded, a draft voided and the
// receivables aging; each checked against the API afterwards, each page with
// axe-core, the invoice page screenshotted at 1440 and 360 px.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emptyLine,
  priceDraft,
  type DraftLine,
  type TaxRateTerms,
} from '../src/dashboard/client/pages/finance/draft.js';
import type { LineInput } from '../src/graphql/finance/invoice/amounts.js';
import { browserTestsRun, expectAccessible, launchBrowser, openDashboard, screenshot } from './support/browser.js';
import { useServer } from './support/fixtures.js';
import { createUser, type TestUser } from './support/oauth.js';
import { pdfText } from './support/pdf.js';

const runInBrowser = browserTestsRun('dashboard-finance.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '100000' });
const ROOT = path.resolve(import.meta.dirname, '..');

let key: string;
let otherKey: string;
let accountant: TestUser;
let salesperson: TestUser;
let contactId: string;
/** VAT 19 % on top, VAT 20 % included, sales tax 8.875 % on top. */
let vat19: TaxRateTerms;
let vat20: TaxRateTerms;
let salesTax: TaxRateTerms;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

async function gql(query: string, variables: Record<string, unknown> = {}, as = key): Promise<Data> {
  const res = await server.gql(query, variables, { key: as });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data as Data;
}

async function taxRate(name: string, percentage: string, inclusive: boolean): Promise<TaxRateTerms> {
  const { createTaxRate } = await gql(
    'mutation ($input: CreateTaxRateInput!) { createTaxRate(input: $input) { id name percentage inclusive } }',
    { input: { name, percentage, inclusive } },
  );
  return createTaxRate as TaxRateTerms;
}

const TOTALS =
  'subtotal discountTotal taxTotal total taxes { taxRateId name percentage inclusive taxableAmount amount }';
const LINES = 'lines { discount amount taxes { taxRateId taxableAmount amount } }';

async function createInvoice(input: Record<string, unknown>): Promise<Data> {
  const { createInvoice } = await gql(
    `mutation ($input: CreateInvoiceInput!) { createInvoice(input: $input) { id number status ${TOTALS} ${LINES} } }`,
    { input: { contactId, currency: 'EUR', ...input } },
  );
  return createInvoice;
}

async function openInvoice(lines: LineInput[], more: Record<string, unknown> = {}): Promise<Data> {
  const made = await createInvoice({ lines, ...more });
  await gql('mutation ($id: ID!) { openInvoice(id: $id) { id } }', { id: made.id });
  return made;
}

beforeAll(async () => {
  const org = await server.org('Books Desk');
  key = await org.key(['admin']);
  otherKey = await (await server.org('Elsewhere')).key(['admin']);
  // Choosing an invoice's contact reads contacts: the API asks crm:read for that.
  accountant = await createUser(server, org.id, {
    role: 'member',
    scopes: ['finance:read', 'finance:write', 'crm:read'],
  });
  salesperson = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
  const { createContact } = await gql(
    'mutation { createContact(input: { email: "ada@books.test", firstName: "Ada", lastName: "Lovelace" }) { id } }',
  );
  contactId = createContact.id;
  vat19 = await taxRate('VAT', '19', false);
  vat20 = await taxRate('VAT', '20', true);
  salesTax = await taxRate('Sales tax', '8.875', false);
});

const line = (patch: Partial<DraftLine>): DraftLine => ({ ...emptyLine(), description: 'Item', ...patch });

/** Lines as typed in the editor, and the same lines as an integrator sends them (minor units). */
const EXAMPLES: { name: string; currency?: string; typed: () => DraftLine[]; sent: () => LineInput[] }[] = [
  {
    name: '2 × 50.00 less 10 % with 19 % VAT on top: 107.10',
    typed: () => [
      line({ quantity: '2', unitPrice: '50.00', discountKind: 'percent', discount: '10', taxRateIds: [vat19.id] }),
    ],
    sent: () => [{ description: 'Item', quantity: 2, unitAmount: 5000, discountPercent: '10', taxRateIds: [vat19.id] }],
  },
  {
    name: '120.00 with 20 % VAT included: tax 20.00, total 120.00',
    typed: () => [line({ unitPrice: '120', taxRateIds: [vat20.id] })],
    sent: () => [{ description: 'Item', quantity: 1, unitAmount: 12000, taxRateIds: [vat20.id] }],
  },
  {
    name: '3 × 33.33 less 5.00 with 8.875 % sales tax (half up)',
    typed: () => [
      line({ quantity: '3', unitPrice: '33.33', discountKind: 'amount', discount: '5', taxRateIds: [salesTax.id] }),
    ],
    sent: () => [
      { description: 'Item', quantity: 3, unitAmount: 3333, discountAmount: 500, taxRateIds: [salesTax.id] },
    ],
  },
  {
    name: '1.125 × 0.99 with an included and an added rate, and a plain second line at 12.5 % off',
    typed: () => [
      line({ quantity: '1.125', unitPrice: '0,99', taxRateIds: [vat20.id, vat19.id] }),
      line({ quantity: '7', unitPrice: '19.99', discountKind: 'percent', discount: '12.5' }),
    ],
    sent: () => [
      { description: 'Item', quantity: 1.125, unitAmount: 99, taxRateIds: [vat20.id, vat19.id] },
      { description: 'Item', quantity: 7, unitAmount: 1999, discountPercent: '12.5' },
    ],
  },
  {
    name: 'yen, which has no minor unit: 3 × 1,000 with 19 % on top',
    currency: 'JPY',
    typed: () => [line({ quantity: '3', unitPrice: '1000', taxRateIds: [vat19.id] })],
    sent: () => [{ description: 'Item', quantity: 3, unitAmount: 1000, taxRateIds: [vat19.id] }],
  },
];

describe("the editor's totals are the server's", () => {
  it.each(EXAMPLES.map((example) => [example.name, example] as const))('%s', async (_name, example) => {
    const currency = example.currency ?? 'EUR';
    const shown = priceDraft(example.typed(), currency, [vat19, vat20, salesTax]);
    expect(shown.errors).toEqual({});
    const saved = await createInvoice({ currency, lines: example.sent() });
    const { priced } = shown;
    expect({
      subtotal: priced!.subtotal,
      discountTotal: priced!.discountTotal,
      taxTotal: priced!.taxTotal,
      total: priced!.total,
      taxes: priced!.taxes,
      lines: priced!.lines.map(({ discount, amount, taxes }) => ({
        discount,
        amount,
        taxes: taxes.map(({ taxRateId, taxableAmount, amount }) => ({ taxRateId, taxableAmount, amount })),
      })),
    }).toEqual({
      subtotal: saved.subtotal,
      discountTotal: saved.discountTotal,
      taxTotal: saved.taxTotal,
      total: saved.total,
      taxes: saved.taxes,
      lines: saved.lines,
    });
  });

  it('has the worked examples right', () => {
    const [first, second] = EXAMPLES.map((example) => priceDraft(example.typed(), 'EUR', [vat19, vat20, salesTax]));
    expect(first!.priced).toMatchObject({ subtotal: 10000, discountTotal: 1000, taxTotal: 1710, total: 10710 });
    expect(second!.priced).toMatchObject({ subtotal: 12000, taxTotal: 2000, total: 12000 });
    expect(second!.priced!.taxes[0]).toMatchObject({ taxableAmount: 10000, amount: 2000 });
  });

  it("refuses what the server refuses, with the server's words, on the same field", async () => {
    const shown = priceDraft(
      [line({ quantity: '2', unitPrice: '10', discountKind: 'amount', discount: '25' })],
      'EUR',
      [],
    );
    const res = await server.gql(
      'mutation ($input: CreateInvoiceInput!) { createInvoice(input: $input) { id } }',
      {
        input: {
          contactId,
          currency: 'EUR',
          lines: [{ description: 'Item', quantity: 2, unitAmount: 1000, discountAmount: 2500 }],
        },
      },
      { key },
    );
    const error = res.errors?.[0];
    expect(error?.extensions?.field).toBe('lines.0.discountAmount');
    expect(shown.errors).toEqual({
      'lines.0.discountAmount': error!.message.replace("'lines.0.discountAmount': ", ''),
    });
    // A text that is no number never reaches the pricing: the field says so.
    expect(priceDraft([line({ quantity: 'two', unitPrice: '1' })], 'EUR', []).errors).toHaveProperty(
      'lines.0.quantity',
    );
    expect(priceDraft([line({ quantity: '1.0005', unitPrice: '1' })], 'EUR', []).errors).toHaveProperty(
      'lines.0.quantity',
    );
  });

  it('bundles the pricing alone: amounts.ts imports no module that needs the server', async () => {
    const result = await build({
      entryPoints: [path.join(ROOT, 'src/graphql/finance/invoice/amounts.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      metafile: true,
      logLevel: 'silent',
    });
    expect(Object.keys(result.metafile.inputs).sort()).toEqual([
      'src/errors.ts',
      'src/graphql/finance/invoice/amounts.ts',
      'src/graphql/finance/percentage-scale.ts',
    ]);
  });
});

// A whole flow in a browser takes a while on a shared machine (the suite runs files in parallel).
describe.runIf(runInBrowser)('the accountant in chromium', { timeout: 180_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(user: TestUser, at: string, viewport?: { width: number; height: number }): Promise<Page> {
    const page = await openDashboard(browser, server.url, user, at, viewport);
    page.setDefaultTimeout(10_000);
    return page;
  }

  async function heading(page: Page, name: string | RegExp): Promise<void> {
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  }

  /** A table's rows as [row header, cell] text pairs: the totals as shown. */
  async function rowsOf(table: Locator): Promise<Record<string, string>> {
    const pairs = await table
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.querySelector('th')?.textContent?.trim() ?? '',
          row.querySelector('td')?.textContent?.trim() ?? '',
        ]),
      );
    return Object.fromEntries(pairs);
  }

  const eur = (minor: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(minor / 100);

  /** The reason a disabled action gives (its accessible description), or undefined when it is enabled. */
  async function reasonOf(page: Page, name: string): Promise<string | undefined> {
    const button = page.getByRole('button', { name, exact: true });
    if ((await button.getAttribute('aria-disabled')) !== 'true') return undefined;
    const id = await button.getAttribute('aria-describedby');
    return (await page.locator(`[id="${id}"]`).textContent()) ?? undefined;
  }

  async function invoice(id: string): Promise<Data> {
    const { invoice } = await gql(
      `query ($id: ID!) { invoice(id: $id) { number status contactId amountPaid amountCredited amountDue ${TOTALS} lines { description quantity unitAmount discountPercent taxRateIds } } }`,
      { id },
    );
    return invoice;
  }

  it('makes an invoice in the editor (two lines, a discount, a tax; totals as the server computes), opens it and takes it paid in two payments', async () => {
    const page = await open(accountant, '/dashboard/finance/invoices/new');
    await heading(page, 'New invoice');
    await expectAccessible(page, 'new invoice, empty');
    await page.getByRole('combobox', { name: 'Contact' }).fill('Lovelace');
    await page.getByRole('option', { name: /Ada Lovelace/ }).click();
    await page.getByLabel('Currency').fill('EUR');
    const first = page.getByRole('group', { name: 'Line 1' });
    await first.getByLabel('Description').fill('Chairs');
    await first.getByLabel('Quantity').fill('2');
    await first.getByLabel('Unit price').fill('50.00');
    await first.getByLabel('Discount', { exact: true }).selectOption('percent');
    await first.getByLabel('Discount percent').fill('10');
    await first.getByRole('checkbox', { name: 'VAT 19 %' }).check();
    // As you type: the line's amount and the totals of one line.
    const totals = page.getByRole('table', { name: 'Totals' });
    await expect.poll(() => rowsOf(totals)).toMatchObject({ Subtotal: eur(10000), Total: eur(10710) });

    await page.getByRole('button', { name: 'Add line' }).click();
    const second = page.getByRole('group', { name: 'Line 2' });
    await second.getByLabel('Description').fill('Desk');
    await second.getByLabel('Quantity').fill('1');
    await second.getByLabel('Unit price').fill('200');
    await second.getByRole('checkbox', { name: 'VAT 19 %' }).check();
    const shown = await rowsOf(totals);
    expect(shown).toEqual({
      Subtotal: eur(30000),
      Discounts: eur(-1000),
      [`VAT 19 % on ${eur(29000)}`]: eur(5510),
      Total: eur(34510),
    });
    await screenshot(page, 'finance-invoice-new');
    await expectAccessible(page, 'new invoice with two lines');

    await page.getByRole('button', { name: 'Create invoice' }).click();
    await heading(page, /^Invoice INV-/);
    const id = page.url().split('/').at(-1)!;
    const saved = await invoice(id);
    // What the editor showed is what the server computed.
    expect(saved).toMatchObject({
      status: 'draft',
      contactId,
      subtotal: 30000,
      discountTotal: 1000,
      taxTotal: 5510,
      total: 34510,
    });
    expect(saved.lines).toEqual([
      { description: 'Chairs', quantity: 2, unitAmount: 5000, discountPercent: '10', taxRateIds: [vat19.id] },
      { description: 'Desk', quantity: 1, unitAmount: 20000, discountPercent: null, taxRateIds: [vat19.id] },
    ]);
    expect(await reasonOf(page, 'Record payment')).toBe('Only an open invoice takes payments.');
    await expectAccessible(page, 'draft invoice');

    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.locator('.badge', { hasText: 'Open' }).waitFor();
    expect(await reasonOf(page, 'Open')).toBe('Only a draft invoice can be opened.');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByRole('heading', { name: 'Record payment' }).waitFor();
    expect(await page.getByLabel('Amount').inputValue()).toBe('345.10'); // the amount due
    // Before saving, what the payment would raise (a dry run of the same mutation): all that is due settles it.
    const wouldRaise = (text: RegExp) => page.getByRole('status').filter({ hasText: text });
    await wouldRaise(/^This will raise .*invoice\.paid/).waitFor();
    expect(await wouldRaise(/This will raise/).getAttribute('aria-live')).toBe('polite');
    await screenshot(page, 'finance-record-payment');
    await page.getByLabel('Amount').fill('100.00');
    await wouldRaise(/^This will raise payment\.received\.$/).waitFor();
    await page.getByLabel('Method').selectOption('card');
    await page.getByLabel('Reference').fill('First part');
    await expectAccessible(page, 'record payment form');
    await page.getByRole('button', { name: 'Save payment' }).click();
    const due = page.getByRole('table', { name: 'Totals' }).locator('tr', { hasText: 'Amount due' });
    await due.filter({ hasText: eur(24510) }).waitFor();
    expect(await invoice(id)).toMatchObject({ status: 'open', amountPaid: 10000, amountDue: 24510 }); // the previews kept nothing

    await page.getByRole('button', { name: 'Record payment' }).click();
    expect(await page.getByLabel('Amount').inputValue()).toBe('245.10');
    await wouldRaise(/^This will raise .*invoice\.paid/).waitFor();
    await page.getByRole('button', { name: 'Save payment' }).click();
    await page.locator('.badge', { hasText: 'Paid' }).waitFor();
    expect(await invoice(id)).toMatchObject({ status: 'paid', amountPaid: 34510, amountDue: 0 });
    expect(await reasonOf(page, 'Record payment')).toBe('Nothing is due on a paid invoice.');
    expect(await reasonOf(page, 'Void')).toBe('Only a draft or open invoice can be voided.');
    expect(await page.locator('tbody tr', { hasText: 'First part' }).count()).toBe(1);
    await screenshot(page, 'finance-invoice-1440');
    await expectAccessible(page, 'paid invoice');
    await page.context().close();

    // The same page on a phone: no sideways scrolling, the tables as cards.
    const narrow = await open(accountant, `/dashboard/finance/invoices/${id}`, { width: 360, height: 740 });
    await heading(narrow, saved.number === undefined ? /^Invoice/ : `Invoice ${(await invoice(id)).number}`);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(narrow, 'finance-invoice-360');
    await expectAccessible(narrow, 'invoice at 360 px');
    await narrow.context().close();
    const wide = await open(accountant, `/dashboard/finance/invoices/${id}`, { width: 1440, height: 900 });
    await heading(wide, /^Invoice INV-/);
    await screenshot(wide, 'finance-invoice-1440');
    await wide.context().close();
  });

  it("shows the API's refusal beside the field, and edits a draft", async () => {
    const made = await createInvoice({
      lines: [{ description: 'Draft work', quantity: 1, unitAmount: 10000, taxRateIds: [vat19.id] }],
    });
    const page = await open(accountant, `/dashboard/finance/invoices/${made.id}/edit`);
    await heading(page, `Edit ${made.number}`);
    const first = page.getByRole('group', { name: 'Line 1' });
    // The editor's own check, as you type: a discount over the line (the server's rule and words).
    await first.getByLabel('Discount', { exact: true }).selectOption('amount');
    await first.getByLabel('Discount amount').fill('150');
    await page.locator('[id="field-lines.0.discountAmount-error"]').waitFor();
    await expectAccessible(page, 'editor with a line error');
    await first.getByLabel('Discount amount').fill('15');
    // The server's check: a due date before the issue date.
    await page.getByLabel('Issue date').fill('2026-03-10');
    await page.getByLabel('Due date').fill('2026-03-01');
    await page.getByRole('button', { name: 'Save invoice' }).click();
    await page.locator('#field-dueDate-error').waitFor();
    await page.getByLabel('Due date').fill('2026-04-09');
    await first.getByLabel('Quantity').fill('3');
    const totals = await rowsOf(page.getByRole('table', { name: 'Totals' }));
    await page.getByRole('button', { name: 'Save invoice' }).click();
    await heading(page, `Invoice ${made.number}`);
    const saved = await invoice(made.id);
    expect(saved).toMatchObject({ subtotal: 30000, discountTotal: 1500, total: 33915 });
    expect(totals.Total).toBe(eur(saved.total));
    const { invoice: dates } = await gql('query ($id: ID!) { invoice(id: $id) { issueDate dueDate } }', {
      id: made.id,
    });
    expect(dates).toEqual({ issueDate: '2026-03-10', dueDate: '2026-04-09' });

    // A draft can be voided; once void, nothing more can be done.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Void' }).click();
    await page.locator('.badge', { hasText: 'Void' }).waitFor();
    expect((await invoice(made.id)).status).toBe('void');
    expect(await reasonOf(page, 'Issue credit note')).toBe('Only an open or paid invoice can be credited.');
    await page.context().close();
  });

  it('issues a credit note of lines on another invoice, and one of an amount', async () => {
    const made = await openInvoice([
      { description: 'Chairs', quantity: 2, unitAmount: 5000, discountPercent: '10', taxRateIds: [vat19.id] },
      { description: 'Desk', quantity: 1, unitAmount: 20000, taxRateIds: [vat19.id] },
    ]);
    const page = await open(accountant, `/dashboard/finance/invoices/${made.id}`);
    await heading(page, `Invoice ${made.number}`);
    await page.getByRole('button', { name: 'Issue credit note' }).click();
    await page.getByRole('heading', { name: 'Issue credit note' }).waitFor();
    await page.getByLabel('Reason').fill('Chairs returned');
    // The invoice's lines to start with: the desk is kept, the chairs come back.
    await page.getByRole('button', { name: 'Remove line 2' }).click();
    const credit = page.getByRole('table', { name: 'Credit note totals' });
    await expect.poll(() => rowsOf(credit)).toMatchObject({ Total: eur(10710) });
    await screenshot(page, 'finance-credit-note-form');
    await expectAccessible(page, 'credit note form');
    await page.getByRole('button', { name: 'Issue', exact: true }).click();
    await page.locator('tbody tr', { hasText: 'Chairs returned' }).filter({ hasText: 'Issued' }).waitFor();
    expect(await invoice(made.id)).toMatchObject({ status: 'open', amountCredited: 10710, amountDue: 23800 });
    const { creditNotes } = await gql(
      'query ($id: ID!) { creditNotes(invoiceId: $id) { data { number status total reason lines { description } } } }',
      { id: made.id },
    );
    expect(creditNotes.data).toEqual([
      {
        number: expect.stringMatching(/^CN-/),
        status: 'issued',
        total: 10710,
        reason: 'Chairs returned',
        lines: [{ description: 'Chairs' }],
      },
    ]);
    const [creditPdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `PDF of ${creditNotes.data[0].number}` }).click(),
    ]);
    expect(creditPdf.suggestedFilename()).toBe(`${creditNotes.data[0].number}.pdf`);
    expect(await pdfText(await readFile((await creditPdf.path())!))).toContain(made.number);

    await page.getByRole('button', { name: 'Issue credit note' }).click();
    await page.getByLabel('Reason').fill('Goodwill');
    await page.getByRole('radio', { name: 'An amount' }).check();
    const amount = page.getByRole('textbox', { name: 'Amount' });
    await amount.fill('300'); // more than is left to credit: the API says so
    await page.getByRole('button', { name: 'Issue', exact: true }).click();
    await page.locator('#field-amount-error').waitFor();
    await amount.fill('38.00');
    await page.getByRole('button', { name: 'Issue', exact: true }).click();
    await page.locator('tbody tr', { hasText: 'Goodwill' }).filter({ hasText: 'Issued' }).waitFor();
    expect(await invoice(made.id)).toMatchObject({ amountCredited: 14510, amountDue: 20000 });
    await expectAccessible(page, 'invoice with credit notes');
    await page.context().close();
  });

  it('refunds a payment (the paid invoice opens again) and allocates an unallocated one', async () => {
    const made = await openInvoice([{ description: 'Consulting', quantity: 1, unitAmount: 50000 }]);
    const { createPayment } = await gql(
      'mutation ($input: CreatePaymentInput!) { createPayment(input: $input) { id } }',
      { input: { invoiceId: made.id, amount: 50000, currency: 'EUR', method: 'bank_transfer', reference: 'SEPA 1' } },
    );
    const page = await open(accountant, `/dashboard/finance/invoices/${made.id}`);
    await heading(page, `Invoice ${made.number}`);
    await page.locator('tbody tr', { hasText: 'SEPA 1' }).getByRole('link').click();
    await heading(page, `Payment of ${eur(50000)}`);
    expect(await reasonOf(page, 'Allocate')).toBe(
      'Only an unallocated payment can be allocated; this one pays an invoice.',
    );
    await page.getByRole('button', { name: 'Refund' }).click();
    expect(await page.getByLabel('Amount').inputValue()).toBe('500.00');
    await page.getByLabel('Amount').fill('120.00');
    await page.getByLabel('Reason').fill('Overcharged hours');
    await expectAccessible(page, 'refund form');
    await page.getByRole('button', { name: 'Save refund' }).click();
    await page.locator('tbody tr', { hasText: 'Overcharged hours' }).waitFor();
    const { payment } = await gql(
      'query ($id: ID!) { payment(id: $id) { amountRefunded refunds { amount reason } } }',
      {
        id: createPayment.id,
      },
    );
    expect(payment).toEqual({ amountRefunded: 12000, refunds: [{ amount: 12000, reason: 'Overcharged hours' }] });
    expect(await invoice(made.id)).toMatchObject({ status: 'open', amountPaid: 38000, amountDue: 12000 });
    await screenshot(page, 'finance-payment');
    await expectAccessible(page, 'payment with a refund');

    // An unallocated payment of 120.00, applied to what the refund left owing.
    const { createPayment: loose } = await gql(
      'mutation ($input: CreatePaymentInput!) { createPayment(input: $input) { id } }',
      { input: { amount: 12000, currency: 'EUR', method: 'cash', reference: 'Till' } },
    );
    await page.goto(`${server.url}/dashboard/finance/payments/${loose.id}`);
    await heading(page, `Payment of ${eur(12000)}`);
    await page.getByRole('button', { name: 'Allocate' }).click();
    await page.getByRole('combobox', { name: 'Invoice' }).fill(made.number);
    await page.getByRole('option', { name: new RegExp(made.number) }).click();
    await expectAccessible(page, 'allocate form');
    await page.getByRole('button', { name: 'Save allocation' }).click();
    await page.getByRole('link', { name: made.number }).waitFor();
    expect(await invoice(made.id)).toMatchObject({ status: 'paid', amountDue: 0 });
    await page.context().close();
  });

  it('leaves the focus where the user puts it as an action panel opens (its heading takes it in the same render)', async () => {
    const made = await openInvoice([{ description: 'Quick hands', quantity: 1, unitAmount: 1000 }]);
    const page = await open(accountant, `/dashboard/finance/invoices/${made.id}`);
    await heading(page, `Invoice ${made.number}`);
    // Pressed, and a field of the panel focused, before the browser paints: what a fast typist does on
    // a slow machine. The heading's focus used to come after the paint and took it back (the record
    // picker then closed under the typist).
    const focus = await page.evaluate(async () => {
      const button = Array.from(document.querySelectorAll('button')).find(
        (b) => b.textContent?.trim() === 'Record payment',
      );
      button!.click();
      await Promise.resolve(); // the panel's render, queued by the click
      const panelHeading = document.activeElement?.textContent;
      document.querySelector<HTMLInputElement>('.action-panel input[name=amount]')!.focus();
      await new Promise((resolve) => setTimeout(resolve, 300)); // past the paint and any effect after it
      return { panelHeading, after: document.activeElement?.getAttribute('name') };
    });
    expect(focus).toEqual({ panelHeading: 'Record payment', after: 'amount' });
    await page.context().close();
  });

  it('downloads the PDF with the session: a PDF naming the invoice number', async () => {
    const made = await openInvoice([
      { description: 'Printed work', quantity: 1, unitAmount: 9900, taxRateIds: [vat19.id] },
    ]);
    const page = await open(accountant, `/dashboard/finance/invoices/${made.id}`);
    await heading(page, `Invoice ${made.number}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${made.number}.pdf`);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(bytes);
    expect(text).toContain(made.number);
    expect(text).toContain('Printed work');

    // The same request from the page's own session: headers of a private download.
    const answer = await page.request.get(`${server.url}/dashboard/finance/invoices/${made.id}/pdf`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/pdf');
    expect(answer.headers()['cache-control']).toBe('no-store');
    // No such invoice, or another organization's: the API's 404 envelope.
    const other = await server.gql(
      'mutation ($input: CreateContactInput!) { createContact(input: $input) { id } }',
      { input: { email: 'x@elsewhere.test' } },
      { key: otherKey },
    );
    const theirs = await server.gql(
      'mutation ($input: CreateInvoiceInput!) { createInvoice(input: $input) { id } }',
      {
        input: {
          contactId: other.data.createContact.id,
          currency: 'EUR',
          lines: [{ description: 'x', quantity: 1, unitAmount: 1 }],
        },
      },
      { key: otherKey },
    );
    for (const id of ['inv_nothing', theirs.data.createInvoice.id]) {
      const missing = await page.request.get(`${server.url}/dashboard/finance/invoices/${id}/pdf`);
      expect(missing.status()).toBe(404);
      expect((await missing.json()).error.code).toBe('NOT_FOUND');
    }
    await page.context().close();

    // Without finance:read: the API's 403; without a session: the sign-in form, continuing to the file.
    const seller = await open(salesperson, '/dashboard');
    const refused = await seller.request.get(`${server.url}/dashboard/finance/invoices/${made.id}/pdf`);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error).toMatchObject({ code: 'FORBIDDEN' });
    await seller.context().close();
    const stranger = await fetch(`${server.url}/dashboard/finance/invoices/${made.id}/pdf`);
    expect(stranger.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await stranger.text()).toContain('Sign in');
  });

  it('shows the receivables aging by contact and bucket, as of a day', async () => {
    // Due 45 days before today, and one not due yet.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const late = await openInvoice([{ description: 'Old work', quantity: 1, unitAmount: 70000 }], {
      issueDate: day(-75),
      dueDate: day(-45),
    });
    const page = await open(accountant, '/dashboard/finance/aging');
    await heading(page, 'Receivables aging');
    const { receivablesAging } = await gql(
      'query { receivablesAging { currencies { currency total buckets { current days31to60 } contacts { contactName total buckets { days31to60 } } } } }',
    );
    const euros = receivablesAging.currencies.find((c: Data) => c.currency === 'EUR');
    const ada = page.getByRole('row', { name: /Ada Lovelace/ });
    await ada.waitFor();
    const cells = await ada.locator('td').allTextContents();
    const contact = euros.contacts.find((c: Data) => c.contactName === 'Ada Lovelace');
    expect(contact.buckets.days31to60).toBeGreaterThanOrEqual(70000);
    expect(cells[2]).toBe(eur(contact.buckets.days31to60));
    expect(cells.at(-1)).toBe(eur(contact.total));
    expect(await page.getByRole('heading', { level: 2, name: `EUR: ${eur(euros.total)} due` }).count()).toBe(1);
    await screenshot(page, 'finance-aging');
    await expectAccessible(page, 'aging');

    // As of the day before the late invoice was issued: it is not in the report.
    await page.getByLabel('As of').fill(day(-76));
    await page.waitForURL(/asOf=/);
    await page
      .getByText(/Nothing is owed|EUR:/)
      .first()
      .waitFor();
    const before = await gql('query ($asOf: Date) { receivablesAging(asOf: $asOf) { currencies { total } } }', {
      asOf: day(-76),
    });
    const shownTotal = before.receivablesAging.currencies[0]?.total;
    if (shownTotal === undefined) await page.getByText('Nothing is owed').waitFor();
    else await page.getByRole('heading', { level: 2, name: `EUR: ${eur(shownTotal)} due` }).waitFor();
    expect(late.number).toBeTruthy();
    await page.context().close();
  });
});
