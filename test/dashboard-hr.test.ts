// The HR desk in a real browser (Debian's chromium through playwright-core)
// against a real server and database, as an HR officer (a member holding
// hr:read, hr:write and hr:payroll) does their month: leave approved and
// rejected from the inbox, leave on the calendar, balances, a payroll run
// created, reviewed and processed, someone clocked in and out; each result
// checked over the API afterwards. A member without hr:payroll sees no payroll.
// Every page is checked with axe-core; the run and payslip pages are
// screenshotted at 1440 and 360 px under test-artifacts/.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, daysOf, isoWeekday, lastDay, todayIn } from '../src/dashboard/client/pages/hr/dates.js';
import { useServer } from './support/fixtures.js';
import { browserTestsRun, expectAccessible, launchBrowser, openDashboard, screenshot } from './support/browser.js';
import { createUser, type TestUser } from './support/oauth.js';

const runInBrowser = browserTestsRun('dashboard-hr.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;
let officer: TestUser;
let noPayroll: TestUser;
let key: string;

beforeAll(async () => {
  if (!runInBrowser) return;
  const org = await server.org('Acme HR');
  officer = await createUser(server, org.id, { role: 'member', scopes: ['hr:read', 'hr:write', 'hr:payroll'] });
  noPayroll = await createUser(server, org.id, { role: 'member', scopes: ['hr:read', 'hr:write'] });
  key = await org.key(['admin']);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The dashboard at `path`, signed in; a step that waits in vain fails in 10 s, naming what it waited for. */
async function open(user: TestUser, path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await openDashboard(browser, server.url, user, path, viewport);
  page.setDefaultTimeout(10_000);
  return page;
}

async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** A GraphQL call with the organization's admin key, as an integrator makes it. */
async function api(query: string, variables: Record<string, unknown> = {}) {
  const res = await server.gql(query, variables, { key });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

let hired = 0;
async function hire(firstName: string, lastName: string, pay?: { salary: number; currency: string }) {
  const { createEmployee } = await api(
    'mutation ($input: CreateEmployeeInput!) { createEmployee(input: $input) { id } }',
    {
      input: {
        firstName,
        lastName,
        email: `${firstName.toLowerCase()}-${++hired}@hr.test`,
        jobTitle: 'Engineer',
        startDate: '2020-01-06',
        ...pay,
      },
    },
  );
  return createEmployee.id as string;
}

async function requestLeave(employeeId: string, type: string, from: string, to: string, reason?: string) {
  const { createLeaveRequest } = await api(
    'mutation ($input: CreateLeaveRequestInput!) { createLeaveRequest(input: $input) { id } }',
    { input: { employeeId, type, from, to, reason } },
  );
  return createLeaveRequest.id as string;
}

const leave = (id: string) =>
  api('query ($id: ID!) { leaveRequest(id: $id) { status rejectionReason decidedBy { type id } days } }', { id }).then(
    (data) => data.leaveRequest,
  );

/** The row of a table holding this text. */
const rowWith = (page: Page, text: string): Locator => page.getByRole('row').filter({ hasText: text });

/** No sideways scrolling at the page's width. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

describe("the calendar's dates", () => {
  it('moves between months across years and counts their days', () => {
    expect(addMonths('2030-12', 1)).toBe('2031-01');
    expect(addMonths('2030-01', -1)).toBe('2029-12');
    expect(addMonths('2030-05', -17)).toBe('2028-12');
    expect(lastDay('2028-02')).toBe('2028-02-29');
    expect(daysOf('2030-02')).toHaveLength(28);
    expect(isoWeekday('2030-05-05')).toBe(7); // a Sunday
  });

  it("takes today in the organization's time zone", () => {
    const instant = new Date('2030-05-31T23:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2030-05-31');
    expect(todayIn('Europe/Paris', instant)).toBe('2030-06-01');
    expect(todayIn('America/New_York', instant)).toBe('2030-05-31');
    expect(todayIn('Not/AZone', instant)).toBe('2030-05-31'); // the API's default, UTC
  });
});

// A whole flow in a browser takes a while on a shared machine (the suite runs files in parallel).
describe.runIf(runInBrowser)('the HR desk in chromium', { timeout: 120_000 }, () => {
  it('approves one leave request and rejects another from the inbox, oldest first, with the balance', async () => {
    await api('mutation { createLeavePolicy(input: { type: vacation, daysPerYear: 20, accrual: yearly }) { id } }');
    const ada = await hire('Ada', 'Lovelace');
    const grace = await hire('Grace', 'Hopper');
    // Monday 4 to Friday 8 March 2030: five working days.
    const first = await requestLeave(ada, 'vacation', '2030-03-04', '2030-03-08', 'Family visit');
    const second = await requestLeave(grace, 'personal', '2030-03-11', '2030-03-12');

    const page = await open(officer, '/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Leave inbox' }).click();
    await heading(page, 'Leave inbox');
    const rows = page.locator('table.leave-inbox tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // The one waiting longest first.
    expect(await rows.nth(0).textContent()).toContain('Ada Lovelace');
    expect(await rows.nth(1).textContent()).toContain('Grace Hopper');
    const adaRow = rowWith(page, 'Ada Lovelace');
    await adaRow.getByText('20 days left of 20 (2030)').waitFor();
    expect(await adaRow.textContent()).toContain('Family visit');
    expect(await adaRow.getByRole('cell').nth(3).textContent()).toBe('5');
    await rowWith(page, 'Grace Hopper').getByText('No personal policy: not limited').waitFor();
    await screenshot(page, 'hr-leave-inbox');
    await expectAccessible(page, 'leave inbox');

    await adaRow.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').filter({ hasText: "Approved Ada Lovelace's vacation leave" }).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await leave(first)).toMatchObject({
      status: 'approved',
      days: 5,
      decidedBy: { type: 'user', id: officer.id },
    });

    const graceRow = rowWith(page, 'Grace Hopper');
    await graceRow.getByRole('button', { name: 'Reject', exact: true }).click();
    const reason = page.getByRole('textbox', { name: 'Reason (optional)' });
    await expect.poll(() => reason.evaluate((input) => input === document.activeElement)).toBe(true);
    await reason.fill('Peak season');
    await expectAccessible(page, 'leave inbox, rejecting');
    await page.getByRole('button', { name: 'Reject request' }).click();
    await page.getByText('No leave requests are waiting for a decision.').waitFor();
    expect(await leave(second)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Peak season',
      decidedBy: { type: 'user', id: officer.id },
    });
    await screenshot(page, 'hr-leave-inbox-empty');
    await expectAccessible(page, 'empty leave inbox');

    // The balance follows the approval.
    await page.goto(`${server.url}/dashboard/hr/leave/balances?year=2030&q=Lovelace`);
    await heading(page, 'Leave balances');
    const balance = rowWith(page, 'Vacation');
    await balance.waitFor();
    const cells = await balance.getByRole('cell').allTextContents();
    // Leave type, entitled, carried over, taken, pending, remaining.
    expect(cells).toEqual(['Vacation', '20', '0', '5', '0', '15']);
    await screenshot(page, 'hr-leave-balances');
    await expectAccessible(page, 'leave balances');
    await page.context().close();
  });

  it('shows approved leave on its days of the calendar, pending leave apart, holidays marked', async () => {
    const alan = await hire('Alan', 'Turing');
    const approved = await requestLeave(alan, 'sick', '2030-05-06', '2030-05-07');
    await api('mutation ($id: ID!) { approveLeaveRequest(id: $id) { id } }', { id: approved });
    await requestLeave(alan, 'other', '2030-05-09', '2030-05-09');
    await api('mutation { createHoliday(input: { date: "2030-05-10", name: "Founders day" }) { id } }');

    const page = await open(officer, '/dashboard/hr/leave/calendar?month=2030-05');
    await heading(page, 'Leave calendar');
    await page.getByRole('heading', { level: 2, name: 'May 2030', exact: true }).waitFor();
    const row = page.locator('table.leave-calendar tbody tr', { hasText: 'Alan Turing' });
    await row.waitFor();
    const days = await row.getByRole('cell').allTextContents(); // one per day of May, the 1st first
    expect(days).toHaveLength(31);
    expect(days[5]).toBe('SSick, approved'); // the mark (S) and its words
    expect(days[6]).toBe('SSick, approved');
    expect(days[8]).toBe('O?Other, pending');
    for (const day of [4, 7, 9, 10]) expect(days[day]).toBe('');
    const holiday = page.locator('table.leave-calendar thead th', { hasText: 'holiday: Founders day' });
    expect(await holiday.count()).toBe(1);
    expect(await holiday.textContent()).toContain('10');
    await page.getByRole('listitem').filter({ hasText: 'Founders day' }).waitFor();
    await screenshot(page, 'hr-leave-calendar');
    await expectAccessible(page, 'leave calendar');

    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('heading', { level: 2, name: 'June 2030', exact: true }).waitFor();
    await page.getByText('No approved or pending leave in June 2030.').waitFor();
    await page.getByRole('button', { name: 'Previous month' }).click();
    await page.getByRole('heading', { level: 2, name: 'May 2030', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Today' }).click();
    const thisMonth = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(),
    );
    await page.getByRole('heading', { level: 2, name: thisMonth, exact: true }).waitFor();
    await expectAccessible(page, 'leave calendar, this month');
    await page.context().close();
  });

  it('creates a payroll run, shows its payslips with their lines, and processes it', async () => {
    // 120,000.00 a year: January pays 10,000.00; an allowance of 200.33; a pension of 5% of the gross.
    const linus = await hire('Linus', 'Payne', { salary: 12_000_000, currency: 'USD' });
    const unpaid = await hire('Una', 'Salaryless');
    const component = 'mutation ($input: CreatePayComponentInput!) { createPayComponent(input: $input) { id } }';
    await api(component, {
      input: {
        employeeId: linus,
        kind: 'earning',
        code: 'meal_allowance',
        description: 'Meal allowance',
        amount: 20_033,
        from: '2030-01-01',
      },
    });
    await api(component, {
      input: {
        employeeId: linus,
        kind: 'deduction',
        code: 'pension',
        description: 'Pension',
        percentage: 5,
        from: '2030-01-01',
      },
    });

    const page = await open(officer, '/dashboard');
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Payroll', exact: true })
      .click();
    await heading(page, 'Payroll');
    await page.getByRole('link', { name: 'New payroll run' }).click();
    await heading(page, 'New payroll run');
    await page.getByLabel('Period start').fill('2030-01-01');
    await page.getByLabel('Period end').fill('2029-12-31');
    await page.getByRole('button', { name: 'Create payroll run' }).click();
    await page.locator('#field-periodEnd-error').waitFor(); // the API's rule, beside its field
    await expectAccessible(page, 'new payroll run with an error');
    await page.getByLabel('Period end').fill('2030-01-31');
    await page.getByLabel('Pay date').fill('2030-02-01');
    await page.getByRole('button', { name: 'Create payroll run' }).click();
    await heading(page, /^Payroll .*2030 – .*2030$/);
    const runId = page.url().split('/').at(-1)!;

    // Gross 10,000.00 + 200.33 = 10,200.33; pension 5% = 510.0165 → 510.02; net 9,690.31.
    const card = page.getByRole('article', { name: 'Linus Payne' });
    await card.waitFor();
    const lines = await card.getByRole('row').allTextContents();
    expect(lines.some((line) => line.startsWith('Salary') && line.endsWith('$10,000.00'))).toBe(true);
    expect(lines.some((line) => line.startsWith('Meal allowance') && line.endsWith('$200.33'))).toBe(true);
    expect(lines.some((line) => line.startsWith('Pension') && line.endsWith('$510.02'))).toBe(true);
    expect(lines).toContain('Gross$10,200.33');
    expect(lines).toContain('Deductions$510.02');
    expect(lines).toContain('Net pay$9,690.31');
    expect(await rowWith(page, 'Total USD').textContent()).toBe('Total USD (1 payslip)$10,200.33$510.02$9,690.31');
    await page.getByText('Una Salaryless: No salary on any day employed in the period').waitFor();

    // The draft can be processed; once processed, Process says why not.
    const processButton = page.getByRole('button', { name: 'Process' });
    expect(await processButton.getAttribute('aria-disabled')).toBeNull();
    await screenshot(page, 'hr-payroll-run-draft');
    await expectAccessible(page, 'draft payroll run');
    page.once('dialog', (dialog) => void dialog.accept());
    await processButton.click();
    await page.locator('.run-facts .badge').getByText('Processed', { exact: true }).waitFor();
    await expect.poll(() => processButton.getAttribute('aria-disabled')).toBe('true');
    const describedBy = (await processButton.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(
      /^Only a draft run can be processed\. It was processed on .+\.$/,
    );
    // Still focusable, but a click does nothing now (no confirmation asked).
    let asked = false;
    page.on('dialog', (dialog) => void ((asked = true), dialog.dismiss()));
    await processButton.focus();
    await processButton.click({ force: true });
    expect(asked).toBe(false);

    const { payrollRun, payslip } = await api(
      `query ($id: ID!, $employeeId: ID!) {
        payrollRun(id: $id) { status processedAt payDate skipped { employeeId reason } }
        payslip(runId: $id, employeeId: $employeeId) { grossAmount deductionsAmount netAmount lines { code amount } }
      }`,
      { id: runId, employeeId: linus },
    );
    expect(payrollRun).toMatchObject({ status: 'processed', payDate: '2030-02-01' });
    // (The other tests' employees, hired without a salary, are skipped too.)
    expect(payrollRun.skipped).toContainEqual({ employeeId: unpaid, reason: 'no_compensation' });
    expect(payrollRun.processedAt).toBeTruthy();
    expect(payslip).toEqual({
      grossAmount: 1_020_033,
      deductionsAmount: 51_002,
      netAmount: 969_031,
      lines: [
        { code: 'salary', amount: 1_000_000 },
        { code: 'meal_allowance', amount: 20_033 },
        { code: 'pension', amount: 51_002 },
      ],
    });

    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'hr-payroll-run-1440');
    await expectAccessible(page, 'processed payroll run');
    await page.setViewportSize({ width: 360, height: 800 });
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'hr-payroll-run-360');
    await expectAccessible(page, 'payroll run at 360 px');

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('link', { name: 'Payslip of Linus Payne' }).click();
    await heading(page, 'Payslip: Linus Payne');
    expect(await page.getByRole('row', { name: /Net pay/ }).textContent()).toBe('Net pay$9,690.31');
    await screenshot(page, 'hr-payslip-1440');
    await expectAccessible(page, 'payslip');
    await page.setViewportSize({ width: 360, height: 800 });
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'hr-payslip-360');
    await expectAccessible(page, 'payslip at 360 px');
    // Printed, the payslip stands alone: no navigation around it.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });

    await page.goto(`${server.url}/dashboard/hr/payroll`);
    await heading(page, 'Payroll');
    await rowWith(page, 'Jan 1, 2030').getByText('$9,690.31').waitFor();
    await expectAccessible(page, 'payroll runs');
    await page.context().close();
  });

  it('shows no payroll to a member without hr:payroll', async () => {
    const page = await open(noPayroll, '/dashboard');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'Leave inbox' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Payroll', exact: true }).count()).toBe(0);
    await page.goto(`${server.url}/dashboard/hr/payroll`);
    await heading(page, 'Not available to you');
    expect(await page.locator('main').textContent()).toContain('hr:payroll');
    await page.goto(`${server.url}/dashboard/hr/payroll-runs/new`);
    await heading(page, 'Not available to you');
    await page.context().close();
  });

  it('clocks an employee in with the picker and out from "Clocked in now"', async () => {
    const kim = await hire('Kim', 'Clockwell');
    const page = await open(officer, '/dashboard/hr/time-clock');
    await heading(page, 'Time clock');
    await page.getByText('Nobody is clocked in.').waitFor();
    await expectAccessible(page, 'time clock, nobody in');
    const picker = page.getByRole('combobox', { name: 'Employee' });
    await picker.fill('Clockwell');
    await page.getByRole('option', { name: /Kim Clockwell/ }).click();
    await page.getByRole('button', { name: 'Clock in' }).click();
    await page.getByRole('status').filter({ hasText: 'Kim Clockwell clocked in at' }).waitFor();
    const row = rowWith(page, 'Kim Clockwell');
    await row.getByRole('button', { name: 'Clock out' }).waitFor();
    expect(await picker.inputValue()).toBe(''); // ready for the next person
    const open_ = await api('query ($id: ID!) { attendance(employeeId: $id) { data { id status clockOut } } }', {
      id: kim,
    });
    expect(open_.attendance.data).toEqual([{ id: expect.any(String), status: 'open', clockOut: null }]);
    await screenshot(page, 'hr-time-clock');
    await expectAccessible(page, 'time clock, someone in');

    // Clocking in twice is the API's 409, shown beside the picker.
    await picker.fill('Clockwell');
    await page.getByRole('option', { name: /Kim Clockwell/ }).click();
    await page.getByRole('button', { name: 'Clock in' }).click();
    expect(await page.locator('#field-employeeId-error').textContent()).toContain('clocked in already');

    await row.getByRole('button', { name: 'Clock out' }).click();
    await page.getByRole('status').filter({ hasText: 'Kim Clockwell clocked out' }).waitFor();
    await page.getByText('Nobody is clocked in.').waitFor();
    await page
      .getByRole('region', { name: /Clocked out today/ })
      .getByText('Kim Clockwell')
      .waitFor();
    const { attendance } = await api(
      'query ($id: ID!) { attendance(employeeId: $id) { data { id status clockIn clockOut minutesWorked } } }',
      { id: kim },
    );
    expect(attendance.data).toHaveLength(1);
    const [record] = attendance.data;
    expect(record).toMatchObject({ id: open_.attendance.data[0].id, status: 'closed', minutesWorked: 0 });
    expect(Date.parse(record.clockOut)).toBeGreaterThan(Date.parse(record.clockIn));
    await expectAccessible(page, 'time clock, clocked out');
    await page.context().close();
  });
});
