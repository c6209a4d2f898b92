// The record pages built from the catalogue (src/dashboard/client/records/) in
// a real browser against a real server, database and worker: a record opened
// from its list with its fields, related records and history (with who did
// what), edited; lifecycle actions run by their buttons (Approve, Terminate
// with its generated form), one the state does not allow shown disabled with
// the reason; a delete; "Nothing matches" and "No … yet"; an Export of a
// filtered list whose CSV holds the list's rows; every declared resource's list
// and record page, read from the catalogue the page carries; cards at 360 px.
// Each result is checked against the API; axe checks each page.
import { readFile } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueResource } from '../src/dashboard/catalogue-shape.js';
import { useServer } from './support/fixtures.js';
import { browserTestsRun, expectAccessible, launchBrowser, openDashboard, screenshot } from './support/browser.js';
import { createBody, declared, type RecordMaker } from './support/examples.js';
import { createUser, type TestUser } from './support/oauth.js';
import { useWorker } from './support/receiver.js';

const runInBrowser = browserTestsRun('dashboard-records.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '1000000' });
useWorker(server);
let browser: Browser;
let admin: TestUser;
let key: string;

beforeAll(async () => {
  if (!runInBrowser) return;
  const org = await server.org('Acme Records');
  admin = await createUser(server, org.id, { role: 'admin' });
  // A key with a name of its own, so the history can say it made a change.
  const made = await server.gql(
    'mutation { createApiKey(input: { name: "HR sync", scopes: [admin] }) { key } }',
    {},
    { key: await org.key(['admin']) },
  );
  key = made.data.createApiKey.key;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await openDashboard(browser, server.url, admin, path, viewport);
  page.setDefaultTimeout(15_000);
  return page;
}

async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(query: string, variables: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await server.gql(query, variables, { key });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

async function newEmployee(firstName: string, lastName: string): Promise<string> {
  const { createEmployee } = await api(
    'mutation ($input: CreateEmployeeInput!) { createEmployee(input: $input) { id } }',
    {
      input: {
        firstName,
        lastName,
        email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@records.test`,
        startDate: '2024-01-08',
      },
    },
  );
  return createEmployee.id;
}

/** Waits for a value as the page gets there (a shared machine is slow: up to 15 s). */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** The text of what describes an element (aria-describedby), as a screen reader reads it. */
const description = (page: Page, locator: ReturnType<Page['getByRole']>) =>
  locator.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

describe.runIf(runInBrowser)('record pages in chromium', { timeout: 120_000 }, () => {
  it('opens a record from its list: its fields, related records, and its history with who did it; then edits it', async () => {
    const id = await newEmployee('Grace', 'Hopper');
    await api('mutation ($input: CreateLeaveRequestInput!) { createLeaveRequest(input: $input) { id } }', {
      input: { employeeId: id, type: 'vacation', from: '2026-07-01', to: '2026-07-03' },
    });
    const page = await open('/dashboard/hr/employees', { width: 1440, height: 900 });
    await heading(page, 'Employees');
    await screenshot(page, 'records-employees-1440');
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await heading(page, 'Grace Hopper');
    expect(page.url()).toContain(`/dashboard/hr/employees/${id}`);
    const facts = page.locator('dl.facts');
    await poll(() => facts.textContent()).toContain('grace.hopper@records.test');
    expect(await facts.textContent()).toMatch(/8 Jan 2024|Jan 8, 2024/); // the browser's locale
    expect(await facts.locator('.badge').textContent()).toBe('Active');
    // Related both ways: its leave requests link to their pages.
    const leave = page.locator('section', { has: page.getByRole('heading', { name: 'Leave requests' }) });
    const request = leave.getByRole('listitem').getByRole('link');
    await request.waitFor();
    expect(await request.getAttribute('href')).toMatch(/\/dashboard\/hr\/leave-requests\/lve_/);
    expect(await request.textContent()).toMatch(/^Leave request · (1 Jul 2026|Jul 1, 2026)$/);
    // And a new one for this employee starts with the employee chosen.
    expect(await leave.getByRole('link', { name: 'New leave request' }).getAttribute('href')).toBe(
      `/dashboard/hr/leave-requests/new?employeeId=${id}`,
    );
    // The history: created by the API key, with its name.
    const history = page.locator('.history-list li');
    await history.first().waitFor();
    expect(await history.first().textContent()).toMatch(/^Created by HR sync \(API key\)/);
    await screenshot(page, 'records-employee-1440');
    await expectAccessible(page, 'employee record');

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await heading(page, 'Edit Grace Hopper');
    await page.getByLabel('Job title').fill('Rear admiral');
    await screenshot(page, 'records-employee-edit');
    await expectAccessible(page, 'employee edit');
    await page.getByRole('button', { name: 'Save employee' }).click();
    await heading(page, 'Grace Hopper');
    await poll(() => page.locator('dl.facts').textContent()).toContain('Rear admiral');
    const { employee } = await api('query ($id: ID!) { employee(id: $id) { jobTitle firstName email } }', { id });
    expect(employee).toEqual({ jobTitle: 'Rear admiral', firstName: 'Grace', email: 'grace.hopper@records.test' });
    // Newest first: the edit, by the signed-in user (their email: they have no name), naming what changed.
    await poll(() => history.first().textContent()).toContain(`Updated by ${admin.email}`);
    expect(await history.first().textContent()).toContain('changed job title');
    expect(await history.last().textContent()).toContain('Created by HR sync');
    await page.context().close();
  });

  it('approves a leave request with its button; Approve is then unavailable, saying why', async () => {
    const employeeId = await newEmployee('Ada', 'Byron');
    const { createLeaveRequest } = await api(
      'mutation ($input: CreateLeaveRequestInput!) { createLeaveRequest(input: $input) { id } }',
      { input: { employeeId, type: 'vacation', from: '2026-08-03', to: '2026-08-05' } },
    );
    const id = createLeaveRequest.id as string;
    const page = await open('/dashboard/hr/leave-requests?status=requested');
    await heading(page, 'Leave requests');
    await page.locator('tbody tr', { hasText: 'Ada Byron' }).getByRole('link').first().click();
    await heading(page, 'Leave request · Ada Byron');
    expect(await page.locator('dl.facts .badge').textContent()).toBe('Requested');
    await expectAccessible(page, 'leave request, requested');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Approved.' }).waitFor();
    await poll(() => page.locator('dl.facts .badge').textContent()).toBe('Approved');
    const { leaveRequest } = await api('query ($id: ID!) { leaveRequest(id: $id) { status decidedAt } }', { id });
    expect(leaveRequest.status).toBe('approved');
    expect(leaveRequest.decidedAt).toBeTruthy();

    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    expect(await approve.getAttribute('aria-disabled')).toBe('true');
    expect(await description(page, approve)).toBe(
      'Only a requested leave request can be approved; this one is approved.',
    );
    // Still there for a keyboard, and pressing it does nothing.
    await approve.focus();
    await page.keyboard.press('Enter');
    // Cancel is still allowed from approved; Edit is not.
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).getAttribute('aria-disabled')).toBeNull();
    expect(await description(page, page.getByRole('button', { name: 'Edit', exact: true }))).toBe(
      'Only a requested leave request can be edited; this one is approved.',
    );
    await poll(() => page.locator('.history-list li').first().textContent()).toMatch(/^Approved by /);
    await screenshot(page, 'records-leave-approved');
    await expectAccessible(page, 'leave request, approved');
    expect((await api('query ($id: ID!) { leaveRequest(id: $id) { status } }', { id })).leaveRequest.status).toBe(
      'approved',
    );
    await page.context().close();
  });

  it('terminates an employee through the generated form of the action, with its end date', async () => {
    const id = await newEmployee('Alan', 'Turing');
    const page = await open(`/dashboard/hr/employees/${id}`);
    await heading(page, 'Alan Turing');
    expect(await page.getByRole('button', { name: 'Reinstate' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('button', { name: 'Terminate', exact: true }).click();
    const form = page.getByRole('form', { name: 'Terminate this employee' });
    await form.getByLabel('End date').fill('2025-06-30');
    await expectAccessible(page, 'terminate form');
    await form.getByRole('button', { name: 'Terminate employee' }).click();
    await poll(() => page.locator('dl.facts .badge').textContent()).toBe('Terminated');
    const { employee } = await api('query ($id: ID!) { employee(id: $id) { status endDate } }', { id });
    expect(employee).toEqual({ status: 'terminated', endDate: '2025-06-30' });
    expect(await page.getByRole('button', { name: 'Reinstate' }).getAttribute('aria-disabled')).toBeNull();
    expect(await description(page, page.getByRole('button', { name: 'Terminate', exact: true }))).toBe(
      'Only an active employee can be terminated; this one is terminated.',
    );
    await page.context().close();
  });

  it('deletes a record where the API allows it, after asking', async () => {
    const { createContact } = await api(
      'mutation { createContact(input: { email: "gone@records.test", firstName: "Gone" }) { id } }',
    );
    const page = await open(`/dashboard/crm/contacts/${createContact.id}`);
    await heading(page, 'Gone');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await heading(page, 'Contacts');
    const res = await server.gql('query ($id: ID!) { contact(id: $id) { id } }', { id: createContact.id }, { key });
    expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // Employees are not deleted through the API: no Delete there.
    const employee = await newEmployee('Kept', 'Person');
    await page.goto(`${server.url}/dashboard/hr/employees/${employee}`);
    await heading(page, 'Kept Person');
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.context().close();
  });

  it('says "Nothing matches" after a search that found nothing, "No … yet" for an empty list; newest first', async () => {
    const page = await open('/dashboard/hr/holidays');
    await heading(page, 'Holidays');
    await page.getByText('No holidays yet.').waitFor();
    await expectAccessible(page, 'empty list');
    for (const name of ['First', 'Second']) {
      await api('mutation ($input: CreateContactInput!) { createContact(input: $input) { id } }', {
        input: { email: `${name.toLowerCase()}@order.test`, firstName: name, company: 'Orderco' },
      });
    }
    await page.goto(`${server.url}/dashboard/crm/contacts?q=order.test`);
    await heading(page, 'Contacts');
    await poll(() => page.locator('tbody tr').count()).toBe(2);
    expect(await page.locator('tbody tr').first().textContent()).toContain('Second');
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain('Created');
    await page.getByRole('searchbox', { name: 'Search' }).fill('no-such-contact');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Nothing matches.').waitFor();
    expect(await page.getByText(/No contacts yet/).count()).toBe(0);
    await expectAccessible(page, 'nothing matches');
    await page.getByRole('link', { name: 'Clear the search and filters' }).click();
    await page.locator('tbody tr').first().waitFor();
    await page.context().close();
  });

  it('exports a filtered list: a progress bar, then a CSV holding exactly the rows listed', async () => {
    for (let n = 1; n <= 4; n++) {
      await api('mutation ($input: CreateContactInput!) { createContact(input: $input) { id } }', {
        input: { email: `buyer${n}@export.test`, lastName: `Buyer ${n}`, company: n % 2 ? 'Exportco' : 'Other' },
      });
    }
    const page = await open('/dashboard/crm/contacts?q=export.test');
    await heading(page, 'Contacts');
    await poll(() => page.locator('tbody tr').count()).toBe(4);
    await page.getByRole('searchbox', { name: 'Search' }).fill('Exportco');
    await page.getByRole('button', { name: 'Search' }).click();
    await poll(() => page.locator('tbody tr').count()).toBe(2);
    const listed = (await page.locator('tbody td[data-label="Email"]').allTextContents()).sort();
    expect(listed).toEqual(['buyer1@export.test', 'buyer3@export.test']);

    await page.getByRole('button', { name: 'Export' }).click();
    const link = page.getByRole('link', { name: /Download CSV/ });
    await link.waitFor();
    expect(await link.textContent()).toContain('2 rows');
    await expectAccessible(page, 'export done');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^contacts-xpt_.*\.csv$/);
    const rows = parseCsv(await readFile((await download.path())!), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.email).sort()).toEqual(listed);
    // The export asked for is the list's filter, as the API holds it.
    const { exports } = await api('{ exports { data { resource filters status } } }');
    expect(exports.data.at(-1)).toEqual({ resource: 'contacts', filters: { q: 'Exportco' }, status: 'completed' });
    // The download is the session's: without one, the sign-in; another site cannot start it.
    const id = (await link.getAttribute('href'))!.split('/').at(-2);
    const anonymous = await fetch(`${server.url}/dashboard/exports/${id}/download`);
    expect(anonymous.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await anonymous.text()).toContain('Sign in');
    const crossSite = await page.context().request.get(`${server.url}/dashboard/exports/${id}/download`, {
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status()).toBe(403);
    await page.context().close();
  });

  it('shows a list as cards and a record in one column at 360 px', async () => {
    await newEmployee('Narrow', 'Screen');
    const page = await open('/dashboard/hr/employees', { width: 360, height: 780 });
    await heading(page, 'Employees');
    const row = page.locator('tbody tr', { hasText: 'Narrow Screen' });
    await row.waitFor();
    // Each cell says what it is; nothing scrolls sideways.
    expect(await row.locator('td[data-label="Status"]').textContent()).toBe('Active');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The headers are not shown as cards: the sort is a select.
    await page.getByLabel('Sort by').selectOption({ label: 'Name, descending' });
    await page.waitForURL(/sort=lastName_desc/);
    await screenshot(page, 'records-employees-360');
    await expectAccessible(page, 'employees at 360');
    await row.getByRole('link').first().click();
    await heading(page, 'Narrow Screen');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'records-employee-360');
    await page.context().close();
  });
});

describe.runIf(runInBrowser)('every declared resource in chromium', { timeout: 600_000 }, () => {
  it('has a list page and a record page, read from the catalogue the dashboard carries', async () => {
    let n = 1000;
    const maker: RecordMaker = {
      next: () => ++n,
      async make(target, body) {
        const res = await server.rest('POST', `/v1${target.fullPath}`, { key, body });
        expect(res.status, `creating in ${target.fullPath}: ${res.text}`).toBe(201);
        return res.body;
      },
      async act(target, id, step) {
        const res = await server.rest('POST', `/v1${target.fullPath}/${id}/${step.path}`, { key, body: step.body });
        expect(res.status, res.text).toBe(200);
      },
    };
    const made = new Map<string, string>();
    for (const resource of declared()) {
      const record = await maker.make(resource, await createBody(resource, maker.next(), maker));
      made.set(resource.path, record.id as string);
    }
    const page = await open('/dashboard');
    const catalogue = JSON.parse((await page.locator('#catalogue').textContent())!) as CatalogueResource[];
    expect(catalogue.map((entry) => entry.key).sort()).toEqual([...made.keys()].sort());
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    for (const entry of catalogue) {
      const title = entry.noun[1][0]!.toUpperCase() + entry.noun[1].slice(1);
      await nav.getByRole('link', { name: title, exact: true }).click();
      await heading(page, title);
      const id = made.get(entry.key)!;
      const link = page.locator(`tbody a[href="/dashboard${entry.path}/${id}"]`);
      await link.waitFor();
      await expectAccessible(page, `${entry.key} list`);
      await link.click();
      await page.waitForURL(`**/dashboard${entry.path}/${id}`);
      // The record's page: the generic one, or a desk's of that resource (a payroll run's), which wins.
      await page.locator('.history-list, .history p').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).not.toBe('Page not found');
      expect(await page.locator('main').textContent()).not.toContain('Loading');
      await expectAccessible(page, `${entry.key} record`);
      await screenshot(page, `records-${entry.key}`);
    }
    await page.context().close();
  });
});
