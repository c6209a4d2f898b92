// The sales board, the overview and the deal form's contact picker in a real
// browser (Debian's chromium through playwright-core) against a real server and
// database: deals made over the API shown in their stage's column with sums per
// currency; a deal dragged, or moved by keyboard and by its Move button, is in
// its new stage over the API; a closed deal's refused move shows the API's
// message and the card goes back; columns page through many deals; the
// overview's numbers are the API's; a new organization's checklist; a contact
// past the first hundred found by typing, two of the same name told apart by
// email. axe on each page, screenshots at 1440 and 360 px under test-artifacts/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/auth/principal.js';
import { newId, newIdWith } from '../src/ids.js';
import { browserTestsRun, expectAccessible, launchBrowser, openDashboard, screenshot } from './support/browser.js';
import { useServer } from './support/fixtures.js';
import { createUser, type TestUser } from './support/oauth.js';

const runInBrowser = browserTestsRun('dashboard-board.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;

const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 360, height: 800 };

beforeAll(async () => {
  if (runInBrowser) browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A GraphQL call with an organization's key, as an integrator makes it. */
async function api(key: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await server.gql(query, variables, { key });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The dashboard at `path`, signed in; a step that waits in vain fails in 10 s, naming what it waited for. */
async function open(user: { email: string; password: string }, path: string, viewport = WIDE): Promise<Page> {
  const page = await openDashboard(browser, server.url, user, path, viewport);
  page.setDefaultTimeout(10_000);
  return page;
}

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** An amount as the dashboard writes it (the browser's locale is en-US). */
const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount / 100);

const humanize = (stage: string) => stage.charAt(0).toUpperCase() + stage.slice(1);

const CREATE_DEAL = 'mutation ($input: CreateDealInput!) { createDeal(input: $input) { id } }';

async function dealStage(key: string, id: string): Promise<string> {
  return (await api(key, 'query ($id: ID!) { deal(id: $id) { stage } }', { id })).deal.stage;
}

describe.runIf(runInBrowser)('the pipeline board in chromium', { timeout: 180_000 }, () => {
  let key: string;
  let seller: TestUser;
  let reader: TestUser;
  const ids: Record<string, string> = {};

  const column = (page: Page, stage: string) => page.getByRole('region', { name: humanize(stage), exact: true });
  const card = (page: Page, title: string) => page.getByRole('listitem', { name: title, exact: true });
  const titlesIn = (page: Page, stage: string) =>
    column(page, stage).locator('.deal-card .deal-title').allTextContents();
  const sumsIn = (page: Page, stage: string) => column(page, stage).locator('.column-sums li').allTextContents();

  /** The sums each column should show: the API's dealPipeline, formatted. */
  async function expectedSums(): Promise<Record<string, string[]>> {
    const { dealPipeline } = await api(key, '{ dealPipeline { stage amounts { currency amount } } }');
    return Object.fromEntries(
      dealPipeline.map((s: { stage: string; amounts: { currency: string; amount: number }[] }) => [
        s.stage,
        s.amounts.map((a) => money(a.amount, a.currency)),
      ]),
    );
  }

  async function expectSumsAsTheApi(page: Page) {
    const expected = await expectedSums();
    for (const [stage, sums] of Object.entries(expected)) {
      await expect.poll(() => sumsIn(page, stage), { message: `sums of ${stage}` }).toEqual(sums);
    }
  }

  beforeAll(async () => {
    const org = await server.org('Board Co');
    key = await org.key(['admin']);
    seller = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
    reader = await createUser(server, org.id, { role: 'member', scopes: ['crm:read'] });
    const { createContact } = await api(
      key,
      'mutation { createContact(input: { email: "ada@board.test", firstName: "Ada", lastName: "Lovelace" }) { id } }',
    );
    const deals = [
      { title: 'Atlas renewal', amount: 100000, currency: 'USD', stage: 'lead', contactId: createContact.id },
      { title: 'Borealis pilot', amount: 50000, currency: 'EUR', stage: 'lead' },
      { title: 'Cobalt upgrade', amount: 25000, currency: 'USD', stage: 'qualified' },
      { title: 'Delta expansion', amount: 7550, currency: 'USD', stage: 'qualified' },
      { title: 'Eiger trial', amount: 12000, currency: 'EUR', stage: 'qualified' },
      { title: 'Fjord license', amount: 300000, currency: 'GBP', stage: 'proposal' },
      { title: 'Gamma closed', amount: 99900, currency: 'USD', stage: 'lead' },
    ];
    for (const input of deals) ids[input.title] = (await api(key, CREATE_DEAL, { input })).createDeal.id;
    await api(key, 'mutation ($id: ID!) { updateDeal(id: $id, input: { stage: won }) { id } }', {
      id: ids['Gamma closed'],
    });
  });

  it('shows the deals made over the API in their columns, with sums per currency', async () => {
    const page = await open(seller, '/dashboard/crm/pipeline');
    await heading(page, 'Pipeline');
    // A column per stage, in the lifecycle's order (the server's dealPipeline order).
    const { dealPipeline } = await api(key, '{ dealPipeline { stage } }');
    await column(page, 'lead').waitFor();
    const names = await page.locator('.board-column h2').allTextContents();
    expect(names).toEqual(dealPipeline.map((s: { stage: string }) => humanize(s.stage)));

    expect(await titlesIn(page, 'lead')).toEqual(expect.arrayContaining(['Atlas renewal', 'Borealis pilot']));
    expect((await titlesIn(page, 'qualified')).sort()).toEqual(['Cobalt upgrade', 'Delta expansion', 'Eiger trial']);
    expect(await titlesIn(page, 'proposal')).toEqual(['Fjord license']);
    expect(await titlesIn(page, 'won')).toEqual(['Gamma closed']);
    expect(await titlesIn(page, 'negotiation')).toEqual([]);
    expect(await column(page, 'qualified').locator('.column-count').textContent()).toBe('3 deals');
    // Sums per currency, never added across currencies.
    expect(await sumsIn(page, 'qualified')).toEqual(['€120.00', '$325.50']);
    expect(await sumsIn(page, 'lead')).toEqual(['€500.00', '$1,000.00']);
    await expectSumsAsTheApi(page);
    // A card: title, contact, amount.
    const atlas = card(page, 'Atlas renewal');
    expect(await atlas.textContent()).toContain('Ada Lovelace');
    expect(await atlas.textContent()).toContain('$1,000.00');
    expect(await atlas.getAttribute('tabindex')).toBe('0');
    await screenshot(page, 'board-1440');
    await expectAccessible(page, 'board');
    await page.context().close();

    const narrow = await open(seller, '/dashboard/crm/pipeline', NARROW);
    await card(narrow, 'Atlas renewal').waitFor();
    // No sideways scrolling at 360 px: the columns stack.
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(narrow, 'board-360');
    await expectAccessible(narrow, 'board at 360 px');
    await narrow.context().close();
  });

  it('moves a deal dragged to another column to that stage over the API', async () => {
    const page = await open(seller, '/dashboard/crm/pipeline');
    const borealis = card(page, 'Borealis pilot');
    await borealis.waitFor();
    await borealis.dragTo(column(page, 'proposal'));
    await expect.poll(() => dealStage(key, ids['Borealis pilot']!)).toBe('proposal');
    await column(page, 'proposal').getByRole('listitem', { name: 'Borealis pilot' }).waitFor();
    expect(await titlesIn(page, 'lead')).not.toContain('Borealis pilot');
    expect(await column(page, 'proposal').locator('.column-count').textContent()).toBe('2 deals');
    await expectSumsAsTheApi(page);
    await expect.poll(() => sumsIn(page, 'lead')).toEqual(['$1,000.00']);
    await page.context().close();
  });

  it('moves a deal by keyboard (arrows, announced) and by its Move button', async () => {
    const page = await open(seller, '/dashboard/crm/pipeline');
    const cobalt = card(page, 'Cobalt upgrade');
    await cobalt.focus();
    await page.keyboard.press('ArrowRight');
    const status = page.getByRole('status').filter({ hasText: 'Moved Cobalt upgrade' });
    await status.waitFor({ state: 'attached' });
    expect(await status.textContent()).toBe('Moved Cobalt upgrade from Qualified to Proposal.');
    expect(await dealStage(key, ids['Cobalt upgrade']!)).toBe('proposal');
    // Focus followed the card to its new column, so the next press moves it on.
    await column(page, 'proposal').getByRole('listitem', { name: 'Cobalt upgrade' }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.dealId))
      .toBe(ids['Cobalt upgrade']);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => dealStage(key, ids['Cobalt upgrade']!)).toBe('negotiation');
    await column(page, 'negotiation').getByRole('listitem', { name: 'Cobalt upgrade' }).waitFor();

    // The Move button, by keyboard: Tab from the card reaches it, Enter opens the stages.
    await page.keyboard.press('Tab');
    const move = page.getByRole('button', { name: 'Move Cobalt upgrade' });
    expect(await move.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await move.getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'board-move-menu');
    await expectAccessible(page, 'board with a Move menu open');
    await page.getByRole('button', { name: 'Move to Qualified' }).press('Enter');
    await expect.poll(() => dealStage(key, ids['Cobalt upgrade']!)).toBe('qualified');
    await column(page, 'qualified').getByRole('listitem', { name: 'Cobalt upgrade' }).waitFor();
    await expectSumsAsTheApi(page);
    await page.context().close();
  });

  it("shows the API's refusal to move a closed deal, and puts the card back", async () => {
    const page = await open(seller, '/dashboard/crm/pipeline');
    const gamma = card(page, 'Gamma closed');
    await gamma.focus();
    await page.keyboard.press('ArrowLeft');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const message = (await alert.textContent())!;
    expect(message).toContain('Gamma closed stays in Won');
    // The API's own words (409: a won deal can be edited only while open).
    const refused = await server.gql(
      'mutation ($id: ID!) { updateDeal(id: $id, input: { stage: negotiation }) { id } }',
      {
        id: ids['Gamma closed'],
      },
      { key },
    );
    expect(message).toContain(refused.errors![0]!.message);
    await expect.poll(() => titlesIn(page, 'won')).toEqual(['Gamma closed']);
    expect(await titlesIn(page, 'negotiation')).not.toContain('Gamma closed');
    expect(await dealStage(key, ids['Gamma closed']!)).toBe('won');
    await screenshot(page, 'board-refused');
    await expectAccessible(page, 'board with a refused move');
    await page.context().close();
  });

  it('offers a reader no moves', async () => {
    const page = await open(reader, '/dashboard/crm/pipeline');
    await card(page, 'Atlas renewal').waitFor();
    expect(await page.getByRole('button', { name: /^Move / }).count()).toBe(0);
    expect(await card(page, 'Atlas renewal').getAttribute('draggable')).toBe('false');
    await page.context().close();
  });

  it('sends the old /pipeline address to the board', async () => {
    const page = await open(reader, '/dashboard/pipeline');
    await heading(page, 'Pipeline');
    await page.waitForURL(/\/dashboard\/crm\/pipeline$/);
    await page.context().close();
  });
});

describe.runIf(runInBrowser)('a column of many deals', { timeout: 180_000 }, () => {
  it('shows the first 50, then the rest, none twice or missing after a move', async () => {
    const org = await server.org('Many Deals Co');
    const key = await org.key(['admin']);
    const seller = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
    const titles = Array.from({ length: 57 }, (_, i) => `Lead ${String(i + 1).padStart(2, '0')}`);
    for (let i = 0; i < titles.length; i += 10) {
      await Promise.all(
        titles
          .slice(i, i + 10)
          .map((title) => api(key, CREATE_DEAL, { input: { title, amount: 100, currency: 'EUR' } })),
      );
    }
    const page = await open(seller, '/dashboard/crm/pipeline');
    const lead = page.getByRole('region', { name: 'Lead', exact: true });
    const cards = lead.locator('.deal-card');
    await expect.poll(() => cards.count()).toBe(50);
    expect(await lead.locator('.column-count').textContent()).toBe('57 deals');
    expect(await lead.locator('.column-sums li').allTextContents()).toEqual(['€57.00']);

    // One of the 50 moves on: the 49 left are still the first of the column's order.
    const moved = await cards.nth(3).getAttribute('aria-labelledby');
    const movedTitle = (await page.locator(`[id="${moved}"]`).textContent())!;
    await cards.nth(3).focus();
    await page.keyboard.press('ArrowRight');
    await page
      .getByRole('region', { name: 'Qualified', exact: true })
      .getByRole('listitem', { name: movedTitle })
      .waitFor();

    const more = lead.getByRole('button', { name: /^Show more in Lead/ });
    expect(await more.textContent()).toContain('7 not shown');
    await more.click();
    await expect.poll(() => cards.count()).toBe(56);
    expect(await lead.getByRole('button', { name: /^Show more/ }).count()).toBe(0);
    const shown = await lead.locator('.deal-title').allTextContents();
    expect(new Set(shown).size).toBe(56);
    expect(shown.sort()).toEqual(titles.filter((title) => title !== movedTitle).sort());
    await page.context().close();
  });
});

describe.runIf(runInBrowser)('the overview in chromium', { timeout: 180_000 }, () => {
  it("shows each role's numbers as the API counts them, each only with its scope", async () => {
    const org = await server.org('Numbers Co');
    const key = await org.key(['admin']);
    const admin = await createUser(server, org.id, { role: 'admin' });
    const salesOnly = await createUser(server, org.id, { role: 'member', scopes: ['crm:read'] });

    // Finance: open invoices in two currencies, two of them overdue, and a draft (owes nothing yet).
    const { createContact } = await api(
      key,
      'mutation { createContact(input: { email: "buyer@numbers.test" }) { id } }',
    );
    const invoice = async (currency: string, unitAmount: number, issueDate?: string, open = true) => {
      const { createInvoice } = await api(
        key,
        'mutation ($input: CreateInvoiceInput!) { createInvoice(input: $input) { id } }',
        {
          input: {
            contactId: createContact.id,
            currency,
            ...(issueDate && { issueDate }),
            lines: [{ description: 'Work', quantity: 1, unitAmount }],
          },
        },
      );
      if (open) await api(key, 'mutation ($id: ID!) { openInvoice(id: $id) { id } }', { id: createInvoice.id });
    };
    await invoice('EUR', 10000, '2025-01-10');
    await invoice('EUR', 5000);
    await invoice('USD', 2000, '2025-02-01');
    await invoice('USD', 999999, undefined, false);

    // Sales.
    for (const [title, amount, currency, stage] of [
      ['N1', 1000, 'EUR', 'lead'],
      ['N2', 2500, 'USD', 'lead'],
      ['N3', 4000, 'EUR', 'proposal'],
    ] as const) {
      await api(key, CREATE_DEAL, { input: { title, amount, currency, stage } });
    }

    // HR: three employees, one terminated; two leave requests pending, one approved.
    const employee = async (n: number) =>
      (
        await api(key, 'mutation ($input: CreateEmployeeInput!) { createEmployee(input: $input) { id } }', {
          input: { firstName: 'Emp', lastName: `No ${n}`, email: `emp${n}@numbers.test` },
        })
      ).createEmployee.id as string;
    const employees = [await employee(1), await employee(2), await employee(3)];
    await api(key, 'mutation ($id: ID!) { terminateEmployee(id: $id) { id } }', { id: employees[2] });
    const leave = async (employeeId: string, from: string) =>
      (
        await api(key, 'mutation ($input: CreateLeaveRequestInput!) { createLeaveRequest(input: $input) { id } }', {
          input: { employeeId, type: 'vacation', from, to: from },
        })
      ).createLeaveRequest.id as string;
    await leave(employees[0]!, '2031-07-01');
    await leave(employees[1]!, '2031-07-02');
    const approved = await leave(employees[0]!, '2031-08-04');
    await api(key, 'mutation ($id: ID!) { approveLeaveRequest(id: $id) { id } }', { id: approved });

    // Webhooks: one whose latest attempt failed (two failures in the last day, one older), one disabled.
    const webhook = async (url: string) =>
      (
        await api(
          key,
          'mutation ($url: String!) { createWebhook(input: { url: $url, events: [deal_created] }) { id } }',
          {
            url,
          },
        )
      ).createWebhook.id as string;
    const failingId = await webhook('http://127.0.0.1:9/failing');
    const disabledId = await webhook('http://127.0.0.1:9/disabled');
    await api(key, 'mutation ($id: ID!) { updateWebhook(id: $id, input: { status: disabled }) { id } }', {
      id: disabledId,
    });
    for (const [hoursAgo, status] of [
      [30, 'failed'],
      [3, 'succeeded'],
      [2, 'failed'],
      [1, 'failed'],
    ] as const) {
      await server.prisma.webhookDelivery.create({
        data: {
          id: newId('webhookDelivery'),
          organizationId: org.id,
          webhookId: failingId,
          eventId: newId('event'),
          eventType: 'deal.created',
          attempt: 1,
          trigger: 'event',
          status,
          statusCode: status === 'failed' ? 500 : 200,
          durationMs: 10,
          createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
        },
      });
    }
    // The latest event of all: the first line of the recent activity.
    const { createDeal: last } = await api(key, CREATE_DEAL, {
      input: { title: 'Newest deal', amount: 100, currency: 'EUR' },
    });

    // What the API says, to compare with the page.
    const truth = await api(
      key,
      `query ($failing: ID!, $disabled: ID!) {
        receivablesAging { currencies { currency total buckets { current } } }
        overdue: invoices(overdue: true, limit: 1) { pagination { total } }
        dealPipeline { stage count amounts { currency amount } }
        active: employees(status: active, limit: 1) { pagination { total } }
        pending: leaveRequests(status: requested, limit: 1) { pagination { total } }
        failing: webhookDeliveryStats(webhookId: $failing, hours: 24) { failed }
        disabled: webhookDeliveryStats(webhookId: $disabled, hours: 24) { failed }
      }`,
      { failing: failingId, disabled: disabledId },
    );
    const failedLastDay = [...truth.failing, ...truth.disabled].reduce(
      (n: number, h: { failed: number }) => n + h.failed,
      0,
    );
    expect(failedLastDay).toBe(2);
    expect(truth.active.pagination.total).toBe(2);
    expect(truth.pending.pagination.total).toBe(2);
    expect(truth.overdue.pagination.total).toBe(2);

    const page = await open(admin, '/dashboard');
    await heading(page, 'Overview');
    const region = (name: string) => page.getByRole('region', { name, exact: true });
    const figure = (id: string) => page.locator(`[data-figure="${id}"]`);

    // Receivables: per currency, open and overdue, as the aging report sums them.
    const receivables = region('Receivables');
    await receivables.locator('tbody tr').first().waitFor();
    const rows = await receivables
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('th, td')).map((cell) => cell.textContent)));
    expect(rows).toEqual(
      truth.receivablesAging.currencies.map((c: { currency: string; total: number; buckets: { current: number } }) => [
        c.currency,
        money(c.total, c.currency),
        money(c.total - c.buckets.current, c.currency),
      ]),
    );
    expect(rows).toEqual([
      ['EUR', '€150.00', '€100.00'],
      ['USD', '$20.00', '$20.00'],
    ]);
    expect(await figure('overdue-invoices').textContent()).toBe('2');

    // Pipeline by stage.
    const pipeline = region('Pipeline');
    await pipeline.locator('tbody tr').first().waitFor();
    const stages = await pipeline
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('th, td')).map((cell) => cell.textContent)));
    expect(stages).toEqual(
      truth.dealPipeline.map((s: { stage: string; count: number; amounts: { currency: string; amount: number }[] }) => [
        humanize(s.stage),
        String(s.count),
        s.amounts.length ? s.amounts.map((a) => money(a.amount, a.currency)).join('') : '—',
      ]),
    );

    // People.
    await figure('headcount').waitFor();
    expect(await figure('headcount').textContent()).toBe('2');
    expect(await figure('pending-leave').textContent()).toBe('2');

    // Webhook health.
    const health = region('Webhook health');
    await expect.poll(() => figure('failed-deliveries').textContent()).toBe(String(failedLastDay));
    expect(await figure('webhook-endpoints').textContent()).toBe('2');
    expect(await figure('failing-endpoints').textContent()).toBe('2');
    const failing = await health.getByRole('list', { name: 'Failing endpoints' }).textContent();
    expect(failing).toContain('http://127.0.0.1:9/failing');
    expect(failing).toContain('Last delivery failed');
    expect(failing).toContain('http://127.0.0.1:9/disabled');
    expect(failing).toContain('Disabled');

    // Recent activity: the API's latest ten events, newest first, with actor, time and a link to the record.
    const activity = region('Recent activity');
    const items = activity.locator('li');
    await expect.poll(() => items.count()).toBe(10);
    const { events } = await api(key, '{ events(limit: 100) { data { type } pagination { total } } }');
    expect(events.pagination.total).toBeLessThanOrEqual(100);
    const latest = events.data
      .slice(-10)
      .reverse()
      .map((event: { type: string }) => humanize(event.type.replace('.', ' ').replaceAll('_', ' ')));
    expect(await activity.locator('.activity-what').allTextContents()).toEqual(latest);
    // Signing in is the newest; the deal made just before it comes next.
    expect(await items.nth(0).textContent()).toContain(`User logged in ${admin.email} by you`);
    expect(await items.nth(1).textContent()).toContain('Deal created Newest deal by API key “test key”');
    expect(await items.nth(1).getByRole('link', { name: 'Newest deal' }).getAttribute('href')).toBe(
      `/dashboard/crm/deals/${last.id}`,
    );
    expect(await items.nth(1).locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Everything done: no checklist.
    expect(await page.getByRole('region', { name: 'Getting started' }).count()).toBe(0);
    await screenshot(page, 'overview-1440');
    await expectAccessible(page, 'overview');
    await page.context().close();

    const narrow = await open(admin, '/dashboard', NARROW);
    await narrow.locator('[data-figure="failed-deliveries"]', { hasText: '2' }).waitFor();
    await narrow.getByRole('region', { name: 'Recent activity' }).locator('li').first().waitFor();
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(narrow, 'overview-360');
    await expectAccessible(narrow, 'overview at 360 px');
    await narrow.context().close();

    // crm:read alone: the pipeline, nothing of finance, HR or webhooks.
    const member = await open(salesOnly, '/dashboard');
    await member.getByRole('region', { name: 'Pipeline' }).locator('tbody tr').first().waitFor();
    await member.getByRole('region', { name: 'Recent activity' }).locator('li').first().waitFor();
    for (const name of ['Receivables', 'People', 'Webhook health', 'Getting started']) {
      expect(await member.getByRole('region', { name, exact: true }).count(), name).toBe(0);
    }
    // Its activity holds only what crm:read may read (deals and contacts).
    const whats = await member.locator('.activity-what').allTextContents();
    expect(
      whats.every((what) => /^(Deal|Contact) /.test(what)),
      whats.join(', '),
    ).toBe(true);
    await expectAccessible(member, 'overview with crm:read');
    await member.context().close();
  });

  it('finds the latest events past the thousand the API counts exactly', async () => {
    const org = await server.org('Busy Co');
    const key = await org.key(['admin']);
    const admin = await createUser(server, org.id, { role: 'admin' });
    // 1,100 older events over the last 40 days: more than the API counts in all, fewer in the last 30 days.
    const day = 86_400_000;
    await server.prisma.event.createMany({
      data: Array.from({ length: 1100 }, (_, i) => {
        const id = newIdWith('con');
        return {
          id: newId('event'),
          organizationId: org.id,
          type: 'contact.created',
          data: { object: { id, email: `old${i}@busy.test` } },
          createdAt: new Date(Date.now() - day - ((40 * day) / 1100) * i),
        };
      }),
    });
    const { createDeal } = await api(key, CREATE_DEAL, {
      input: { title: 'Latest of many', amount: 100, currency: 'EUR' },
    });
    const { events } = await api(key, '{ events(limit: 1) { pagination { totalExact } } }');
    expect(events.pagination.totalExact).toBe(false);

    const page = await open(admin, '/dashboard');
    const items = page.getByRole('region', { name: 'Recent activity' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(10);
    expect(await items.nth(0).textContent()).toContain('User logged in');
    expect(await items.nth(1).textContent()).toContain('Deal created Latest of many');
    expect(await items.nth(1).getByRole('link', { name: 'Latest of many' }).getAttribute('href')).toBe(
      `/dashboard/crm/deals/${createDeal.id}`,
    );
    // Below the setup's own (the user and key made), the newest of the old ones, a day ago, newest first.
    const old = await items.filter({ hasText: 'Contact created' }).allTextContents();
    expect(old.length).toBeGreaterThanOrEqual(2);
    expect(old[0]).toContain('Contact created old0@busy.test');
    expect(old[1]).toContain('Contact created old1@busy.test');
    await page.context().close();
  });

  it("shows a new organization's getting-started checklist, each step ticked once done", async () => {
    const email = `founder-${Date.now()}@new.test`;
    const password = 'correct horse battery staple';
    const created = await server.services.organizations.create({
      name: 'Brand New Co',
      adminEmail: email,
      adminPassword: password,
    });
    const page = await open({ email, password }, '/dashboard');
    await heading(page, 'Overview');
    const checklist = page.getByRole('region', { name: 'Getting started' });
    await checklist.waitFor();
    expect(await checklist.textContent()).toContain('0 of 3 done');
    const step = (name: string) => checklist.getByRole('listitem').filter({ hasText: name });
    for (const [name, href] of [
      ['Make an API key', '/dashboard/settings/api-keys/new'],
      ['Add a webhook', '/dashboard/developers/webhooks'],
      ['Invite someone', '/dashboard/settings/users/new'],
    ]) {
      expect(await step(name!).textContent()).toContain('To do');
      expect(await step(name!).getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    // The only event yet: this sign-in.
    const activity = page.getByRole('region', { name: 'Recent activity' }).getByRole('listitem');
    await expect
      .poll(() => activity.allTextContents())
      .toEqual([expect.stringContaining(`User logged in ${email} by you`)]);
    await screenshot(page, 'overview-getting-started');
    await expectAccessible(page, 'overview of a new organization');

    // Done where the link leads: a key made through the form.
    await checklist.getByRole('link', { name: 'Make an API key' }).click();
    await heading(page, 'New API key');
    await page.getByLabel('Name').fill('First key');
    await page.getByRole('checkbox', { name: /crm:read/ }).check();
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('heading', { name: 'Key and secret for First key' }).waitFor();
    await page.getByRole('button', { name: 'I have copied them' }).click();
    await page.locator('a.brand').click();
    await heading(page, 'Overview');
    await expect.poll(() => checklist.textContent()).toContain('1 of 3 done');
    expect(await step('Make an API key').textContent()).toContain('Done');
    expect(await step('Add a webhook').textContent()).toContain('To do');

    // The others done over the API: the checklist is gone.
    const { key } = await server.services.apiKeys.create(operatorPrincipal(created.organization.id), {
      name: 'setup',
      scopes: ['admin'],
    });
    await api(
      key,
      'mutation { createWebhook(input: { url: "http://127.0.0.1:9/new", events: [deal_created] }) { id } }',
    );
    await createUser(server, created.organization.id, { role: 'member', scopes: ['crm:read'] });
    await page.reload();
    await heading(page, 'Overview');
    await page.getByRole('region', { name: 'Webhook health' }).locator('[data-figure="webhook-endpoints"]').waitFor();
    expect(await page.getByRole('region', { name: 'Getting started' }).count()).toBe(0);
    await page.context().close();
  });
});

describe.runIf(runInBrowser)("the deal form's contact picker", { timeout: 180_000 }, () => {
  it('finds a contact past the first hundred by typing, and tells two of the same name apart by email', async () => {
    const org = await server.org('Picker Co');
    const key = await org.key(['admin']);
    const seller = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
    const contact = async (input: Record<string, string>) =>
      (await api(key, 'mutation ($input: CreateContactInput!) { createContact(input: $input) { id } }', { input }))
        .createContact.id as string;
    // A hundred contacts that sort (by last name, and by creation) before the one wanted.
    for (let i = 0; i < 100; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          contact({ email: `filler${i + j}@picker.test`, firstName: 'Filler', lastName: `Aaron ${i + j}` }),
        ),
      );
    }
    const zelda = await contact({ email: 'zelda@picker.test', firstName: 'Zelda', lastName: 'Zimmer' });
    const kenNorth = await contact({ email: 'ken@north.test', firstName: 'Ken', lastName: 'Allen' });
    const kenSouth = await contact({ email: 'ken@south.test', firstName: 'Ken', lastName: 'Allen' });

    const page = await open(seller, '/dashboard/deals/new');
    await heading(page, 'New deal');
    const create = async (title: string, search: string, detail: string) => {
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Currency').fill('EUR');
      const picker = page.getByRole('combobox', { name: 'Contact' });
      await picker.fill(search);
      const option = page.getByRole('listbox', { name: 'Contact' }).getByRole('option').filter({ hasText: detail });
      await option.waitFor();
      return { picker, option };
    };

    const first = await create('Zelda deal', 'Zelda', 'zelda@picker.test');
    await first.option.click();
    await expect(first.picker.inputValue()).resolves.toBe('Zelda Zimmer');
    await page.getByRole('button', { name: 'Create deal' }).click();
    await heading(page, 'Zelda deal');
    const zeldaDeal = page.url().split('/').at(-1)!;
    expect((await api(key, 'query ($id: ID!) { deal(id: $id) { contactId } }', { id: zeldaDeal })).deal.contactId).toBe(
      zelda,
    );

    await page.goto(server.url + '/dashboard/deals/new');
    await heading(page, 'New deal');
    const second = await create('Ken deal', 'Ken Allen', 'ken@south.test');
    // Two "Ken Allen", each with its email beside the name.
    const options = page.getByRole('listbox', { name: 'Contact' }).getByRole('option');
    await expect.poll(() => options.count()).toBe(2);
    const texts = await options.allTextContents();
    expect(texts.every((text) => text.startsWith('Ken Allen'))).toBe(true);
    expect(texts.join(' ')).toContain('ken@north.test');
    expect(texts.join(' ')).toContain('ken@south.test');
    await screenshot(page, 'deal-form-contact-picker');
    await expectAccessible(page, 'deal form with the contact picker open');
    // Chosen by keyboard: down to the south one, Enter.
    const southIndex = texts.findIndex((text) => text.includes('ken@south.test'));
    for (let i = 0; i <= southIndex; i++) await second.picker.press('ArrowDown');
    await second.picker.press('Enter');
    await expect(page.locator('input[name="contactId"]').inputValue()).resolves.toBe(kenSouth);
    await page.getByRole('button', { name: 'Create deal' }).click();
    await heading(page, 'Ken deal');
    const kenDeal = page.url().split('/').at(-1)!;
    const { deal } = await api(key, 'query ($id: ID!) { deal(id: $id) { contactId } }', { id: kenDeal });
    expect(deal.contactId).toBe(kenSouth);
    expect(deal.contactId).not.toBe(kenNorth);
    await page.context().close();
  });
});
