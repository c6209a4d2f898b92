// The dashboard's Data pages in a real browser (Debian's chromium through
// playwright-core) against a real server and database: a contact created and
// edited with the API's validation message beside its field, deals listed,
// sorted and edited, the pipeline summing deals made over the API, and the
// read-only HR and finance lists shown only with their scopes. Each page is
// screenshotted under test-artifacts/ and checked with axe-core.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';
import { browserTestsRun, expectAccessible, launchBrowser, openDashboard, screenshot } from './support/browser.js';
import { createUser, type TestUser } from './support/oauth.js';

const runInBrowser = browserTestsRun('dashboard-data.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;
let admin: TestUser;
let crmMember: TestUser;
let key: string;

beforeAll(async () => {
  if (!runInBrowser) return;
  const org = await server.org('Acme Data');
  admin = await createUser(server, org.id, { role: 'admin' });
  crmMember = await createUser(server, org.id, { role: 'member', scopes: ['crm:read', 'crm:write'] });
  key = await org.key(['admin']);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The dashboard at `path`, signed in; a step that waits in vain fails in 10 s, naming what it waited for. */
async function open(user: TestUser, path: string): Promise<Page> {
  const page = await openDashboard(browser, server.url, user, path);
  page.setDefaultTimeout(10_000);
  return page;
}

async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** A GraphQL call with the organization's key, as an integrator makes it. */
async function api(query: string, variables: Record<string, unknown> = {}) {
  const res = await server.gql(query, variables, { key });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

// A whole flow in a browser takes a while on a shared machine (the suite runs files in parallel).
describe.runIf(runInBrowser)('dashboard data in chromium', { timeout: 90_000 }, () => {
  it('creates a contact, and shows the API refusing an invalid email beside the Email field', async () => {
    const page = await open(crmMember, '/dashboard/contacts');
    await heading(page, 'Contacts');
    await page.getByRole('link', { name: 'New contact' }).click();
    await heading(page, 'New contact');
    await page.getByLabel('Email').fill('ada@example.test');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Tags').fill('customer, vip');
    await screenshot(page, 'dashboard-contact-new');
    await expectAccessible(page, 'new contact');
    await page.getByRole('button', { name: 'Create contact' }).click();
    await heading(page, 'Ada Lovelace');
    const id = page.url().split('/').at(-1)!;
    await screenshot(page, 'dashboard-contact');
    await expectAccessible(page, 'contact');

    await page.getByRole('link', { name: 'Edit' }).click();
    await heading(page, 'Edit Ada Lovelace');
    const email = page.getByLabel('Email');
    await email.fill('not-an-email');
    await page.getByRole('button', { name: 'Save contact' }).click();
    // The message is the API's, inside the Email field's container and tied to the input.
    const field = page.locator('.field', { has: page.locator('#field-email') });
    await field.locator('.field-error').waitFor();
    const message = (await field.locator('.field-error').textContent())!;
    expect(message).toMatch(/email/i);
    const describedBy = (await email.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${describedBy}`).textContent()).toBe(message);
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.inputValue()).toBe('not-an-email'); // what was typed stays to be fixed
    await screenshot(page, 'dashboard-contact-edit-error');
    await expectAccessible(page, 'contact edit with an error');

    await email.fill('ada.lovelace@example.test');
    await page.getByLabel('Company').fill('Analytical Engines');
    await page.getByRole('button', { name: 'Save contact' }).click();
    await heading(page, 'Ada Lovelace');
    const { contact } = await api('query ($id: ID!) { contact(id: $id) { email company tags } }', { id });
    expect(contact).toEqual({
      email: 'ada.lovelace@example.test',
      company: 'Analytical Engines',
      tags: ['customer', 'vip'],
    });
    await page.context().close();
  });

  it('shows a taken email under the Email field (409 on email)', async () => {
    await api('mutation { createContact(input: { email: "taken@example.test" }) { id } }');
    const page = await open(crmMember, '/dashboard/contacts/new');
    await heading(page, 'New contact');
    await page.getByLabel('Email').fill('taken@example.test');
    await page.getByRole('button', { name: 'Create contact' }).click();
    const error = page.locator('#field-email-error');
    await error.waitFor();
    expect(await error.textContent()).toBeTruthy();
    await page.context().close();
  });

  it('lists contacts with search, sort and paging kept in the URL', async () => {
    for (const name of ['Zed', 'Mia', 'Bob']) {
      await api('mutation ($input: CreateContactInput!) { createContact(input: $input) { id } }', {
        input: { email: `${name.toLowerCase()}@list.test`, lastName: name, company: 'Listco' },
      });
    }
    const page = await open(crmMember, '/dashboard/contacts');
    await heading(page, 'Contacts');
    await page.getByRole('searchbox', { name: 'Search' }).fill('list.test');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=list.test/);
    // The unfiltered page (Zed among others) stays on screen until the search answers.
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3);
    await page.locator('tbody tr').filter({ hasText: 'Zed' }).waitFor();
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await page.waitForURL(/sort=lastName/);
    await page.locator('tbody tr').first().filter({ hasText: 'Bob' }).waitFor();
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await page.waitForURL(/sort=lastName_desc/);
    await page.locator('tbody tr').first().filter({ hasText: 'Zed' }).waitFor();
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain('Name');
    await screenshot(page, 'dashboard-contacts');
    await expectAccessible(page, 'contacts');
    await page.locator('tbody tr').first().getByRole('link').click();
    await heading(page, 'Zed');
    await page.context().close();
  });

  it('creates and edits a deal (its stage moves through the update), listed under its contact', async () => {
    const { createContact } = await api(
      'mutation { createContact(input: { email: "deal@example.test", firstName: "Dee" }) { id } }',
    );
    const page = await open(crmMember, `/dashboard/contacts/${createContact.id}`);
    await heading(page, 'Dee');
    await page.getByRole('link', { name: 'New deal' }).click();
    await heading(page, 'New deal');
    await page.getByLabel('Title').fill('Engine order');
    await page.getByLabel('Amount').fill('twelve');
    await page.getByLabel('Currency').fill('EUR');
    await page.getByRole('button', { name: 'Create deal' }).click();
    await page.locator('#field-amount-error').waitFor();
    await page.getByLabel('Amount').fill('1250.50');
    await page.getByLabel('Currency').fill('EU');
    await page.getByRole('button', { name: 'Create deal' }).click();
    await page.locator('#field-currency-error').waitFor(); // the API's rule
    await screenshot(page, 'dashboard-deal-new-error');
    await expectAccessible(page, 'new deal with an error');
    await page.getByLabel('Currency').fill('EUR');
    // The contact the deal was started from is chosen in the picker (its id in the form, its name shown).
    await expect(page.locator('input[name="contactId"]').inputValue()).resolves.toBe(createContact.id);
    await expect.poll(() => page.getByRole('combobox', { name: 'Contact' }).inputValue()).toBe('Dee');
    await page.getByRole('button', { name: 'Create deal' }).click();
    await heading(page, 'Engine order');
    const dealId = page.url().split('/').at(-1)!;
    expect(await page.locator('dl.facts').textContent()).toContain('1,250.50');
    await screenshot(page, 'dashboard-deal');
    await expectAccessible(page, 'deal');

    await page.getByRole('link', { name: 'Edit' }).click();
    await heading(page, 'Edit Engine order');
    await expect(page.getByLabel('Stage').inputValue()).resolves.toBe('lead');
    await screenshot(page, 'dashboard-deal-edit');
    await expectAccessible(page, 'deal edit');
    await page.getByLabel('Stage').selectOption('won');
    await page.getByRole('button', { name: 'Save deal' }).click();
    await heading(page, 'Engine order');
    const { deal } = await api('query ($id: ID!) { deal(id: $id) { stage amount currency contactId closedAt } }', {
      id: dealId,
    });
    expect(deal).toMatchObject({ stage: 'won', amount: 125050, currency: 'EUR', contactId: createContact.id });
    expect(deal.closedAt).toBeTruthy();

    await page.getByRole('link', { name: 'Dee' }).click();
    await heading(page, 'Dee');
    expect(await page.getByRole('link', { name: 'Engine order' }).count()).toBe(1);
    await page.goto(server.url + '/dashboard/deals?stage=won');
    await heading(page, 'Deals');
    await page.locator('tbody tr', { hasText: 'Engine order' }).waitFor();
    await expect(page.getByLabel('Stage').inputValue()).resolves.toBe('won');
    await screenshot(page, 'dashboard-deals');
    await expectAccessible(page, 'deals');
    await page.context().close();
  });

  it('shows the pipeline: count and amounts per currency of each stage, for deals made over the API', async () => {
    const create = 'mutation ($input: CreateDealInput!) { createDeal(input: $input) { id } }';
    await api(create, { input: { title: 'P1', amount: 10000, currency: 'USD', stage: 'proposal' } });
    await api(create, { input: { title: 'P2', amount: 2550, currency: 'USD', stage: 'proposal' } });
    await api(create, { input: { title: 'P3', amount: 700, currency: 'GBP', stage: 'proposal' } });
    // The old address leads to the board (test/dashboard-board.test.ts tests the board itself).
    const page = await open(crmMember, '/dashboard/pipeline');
    await heading(page, 'Pipeline');
    const proposal = page.getByRole('region', { name: 'Proposal', exact: true });
    await proposal.getByRole('listitem', { name: 'P3' }).waitFor();
    const text = (await proposal.textContent())!;
    expect(text).toContain('3 deals');
    expect(text).toContain('$125.50');
    expect(text).toContain('£7.00');
    expect(await page.locator('.board-column').count()).toBe(6);
    await screenshot(page, 'dashboard-pipeline');
    await expectAccessible(page, 'pipeline');
    await page.context().close();
  });

  it('lists HR and finance records read-only, shown only with hr:read and finance:read', async () => {
    await api(
      'mutation { createEmployee(input: { firstName: "Grace", lastName: "Hopper", email: "grace@example.test" }) { id } }',
    );
    const member = await open(crmMember, '/dashboard');
    const memberNav = member.getByRole('navigation', { name: 'Dashboard' });
    expect(await memberNav.getByRole('link', { name: 'Contacts' }).count()).toBe(1);
    expect(await memberNav.getByRole('link', { name: 'Employees' }).count()).toBe(0);
    expect(await memberNav.getByRole('link', { name: 'Invoices' }).count()).toBe(0);
    await member.context().close();

    const page = await open(admin, '/dashboard');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    const lists = [
      ['Employees', 'employees'],
      ['Departments', 'departments'],
      ['Attendance', 'attendance'],
      ['Leave requests', 'leave-requests'],
      ['Payroll runs', 'payroll-runs'],
      ['Invoices', 'invoices'],
      ['Payments', 'payments'],
      ['Expenses', 'expenses'],
    ];
    for (const [label, name] of lists) {
      await nav.getByRole('link', { name: label, exact: true }).click();
      await heading(page, label!);
      await page.locator('.table-wrap, .empty').first().waitFor();
      await screenshot(page, `dashboard-${name}`);
      await expectAccessible(page, label!);
    }
    await nav.getByRole('link', { name: 'Employees', exact: true }).click();
    await page.locator('tbody tr', { hasText: 'Hopper' }).waitFor();
    await page.context().close();
  });
});
