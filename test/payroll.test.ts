// Payroll that pays people right (issue 25): the basis stated once (calendar
// months, annual / 12 with cumulative rounding, part months by days), who is
// paid (every employment overlapping the period, whatever the status now; the
// gaps not), compensation history, approved unpaid leave, pay components,
// payslips that explain themselves, and runs (one per period, delete and
// recalculate a draft, hr:payroll only). Every figure is worked out by hand in
// a comment beside it.
import { describe, expect, it } from 'vitest';
import { monthsOf } from '../src/graphql/hr/payroll-run/pay-days.js';
import { computePayslip, monthlyAmount, roundHalfUp, type PayInputs } from '../src/graphql/hr/payroll-run/payslip.js';
import { useServer, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let counter = 0;

/** A fresh organization with a key for HR and payroll, and helpers. */
async function payrollOrg() {
  const org = await server.org();
  const key = await org.key(['hr:read', 'hr:write', 'hr:payroll']);
  const send = (method: string, path: string, body?: unknown) => server.rest(method, `/v1${path}`, { key, body });
  const ok = async (method: string, path: string, body?: unknown, status = method === 'POST' ? [200, 201] : [200]) => {
    const res = await send(method, path, body);
    expect(status, `${method} ${path}: ${res.text}`).toContain(res.status);
    return res.body as Body;
  };
  const employee = (fields: Record<string, unknown> = {}) => {
    const n = ++counter;
    return ok('POST', '/hr/employees', {
      firstName: 'Ada',
      lastName: `Payee ${n}`,
      email: `payee-${n}@example.test`,
      ...fields,
    });
  };
  const run = (periodStart: string, periodEnd: string) => ok('POST', '/hr/payroll-runs', { periodStart, periodEnd });
  const leave = async (employeeId: string, type: string, from: string, to: string, decision?: string) => {
    const request = await ok('POST', '/hr/leave-requests', { employeeId, type, from, to });
    if (decision) await ok('POST', `/hr/leave-requests/${request.id}/${decision}`, {});
    return request;
  };
  return { org, key, send, ok, employee, run, leave };
}

/** The run's item of this employee. */
const itemOf = (run: Body, employeeId: string) => run.items.find((item: Body) => item.employeeId === employeeId);

function expectError(res: TestResponse, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, ...(field && { field }) });
}

const USD = 'USD';

describe('the basis (payslip.ts, pure)', () => {
  it('rounds half up, exactly, and a deduction by its magnitude', () => {
    expect(roundHalfUp(1n, 2n)).toBe(1n); // 0.5 -> 1
    expect(roundHalfUp(5n, 2n)).toBe(3n); // 2.5 -> 3 (not to even)
    expect(roundHalfUp(14_999n, 10_000n)).toBe(1n); // 1.4999 -> 1
    expect(roundHalfUp(-5n, 2n)).toBe(-3n);
  });

  it('pays a whole month annual / 12 with cumulative rounding: twelve months are the annual salary', () => {
    const year = (annual: bigint) => Array.from({ length: 12 }, (_, i) => monthlyAmount(annual, i + 1));
    // 12,000,000 / 12 = 1,000,000 every month.
    expect(year(12_000_000n)).toEqual(Array(12).fill(1_000_000n));
    // 100,000 × m / 12 = 8,333.33, 16,666.67, 25,000, ...: rounded 8,333, 16,667, 25,000, ... so the months
    // pay 8,333, 8,334, 8,333, ... and the year exactly 100,000.
    expect(year(100_000n)).toEqual([
      8_333n,
      8_334n,
      8_333n,
      8_333n,
      8_334n,
      8_333n,
      8_333n,
      8_334n,
      8_333n,
      8_333n,
      8_334n,
      8_333n,
    ]);
    // 1,234,567 × m / 12: 102,880.58 -> 102,881; 205,761.17 -> 205,761; 308,641.75 -> 308,642;
    // 411,522.33 -> 411,522; 514,402.92 -> 514,403; 617,283.50 -> 617,284 (half up); 720,164.08 -> 720,164;
    // 823,044.67 -> 823,045; 925,925.25 -> 925,925; 1,028,805.83 -> 1,028,806; 1,131,686.42 -> 1,131,686; 1,234,567.
    expect(year(1_234_567n)).toEqual([
      102_881n,
      102_880n,
      102_881n,
      102_880n,
      102_881n,
      102_881n,
      102_880n,
      102_881n,
      102_880n,
      102_881n,
      102_880n,
      102_881n,
    ]);
    for (const annual of [12_000_000n, 100_000n, 1_234_567n, 1n, 11n, 9_007_199_254_740_991n]) {
      expect(
        year(annual).reduce((a, b) => a + b, 0n),
        String(annual),
      ).toBe(annual);
    }
  });

  it('splits a period into its calendar months', () => {
    expect(monthsOf('2024-02-10', '2024-03-05').map(({ label, days }) => [label, days])).toEqual([
      ['2024-02', 29],
      ['2024-03', 31],
    ]);
    expect(monthsOf('2026-12-31', '2027-01-01').map(({ label, month }) => [label, month])).toEqual([
      ['2026-12', 12],
      ['2027-01', 1],
    ]);
  });

  const inputs = (overrides: Partial<PayInputs>): PayInputs => ({
    periodStart: '2026-03-01',
    periodEnd: '2026-03-31',
    employments: [{ startDate: '2025-01-01', endDate: null }],
    compensation: [{ salary: 12_000_000n, currency: USD, effectiveFrom: '2025-01-01' }],
    unpaidLeave: [],
    components: [],
    ...overrides,
  });

  it('prorates a raise inside a month into two lines, and a period that is no calendar month by days', () => {
    const raise = computePayslip(
      inputs({
        compensation: [
          { salary: 12_000_000n, currency: USD, effectiveFrom: '2025-01-01' },
          { salary: 18_000_000n, currency: USD, effectiveFrom: '2026-03-16' },
        ],
      }),
    );
    // March has 31 days: 1,000,000 × 15 / 31 = 483,870.97 -> 483,871; 1,500,000 × 16 / 31 = 774,193.55 -> 774,194.
    expect(raise).toMatchObject({
      payslip: {
        lines: [
          {
            code: 'salary',
            amount: 483_871n,
            description: 'Salary 2026-03-01..2026-03-15: 10000.00 USD a month × 15/31 days',
          },
          {
            code: 'salary',
            amount: 774_194n,
            description: 'Salary 2026-03-16..2026-03-31: 15000.00 USD a month × 16/31 days',
          },
        ],
        grossAmount: 1_258_065n,
        basis: { daysPaid: 31, daysInPeriod: 31 },
      },
    });
    // 2026-01-16..2026-02-15: 1,000,000 × 16 / 31 = 516,129.03 -> 516,129 and 1,000,000 × 15 / 28 = 535,714.29 -> 535,714.
    const across = computePayslip(inputs({ periodStart: '2026-01-16', periodEnd: '2026-02-15' }));
    expect(across).toMatchObject({
      payslip: { lines: [{ amount: 516_129n }, { amount: 535_714n }], grossAmount: 1_051_843n },
    });
  });

  it('says why someone employed around the period has no payslip, and leaves out those gone before it', () => {
    const currencies = computePayslip(
      inputs({
        compensation: [
          { salary: 12_000_000n, currency: USD, effectiveFrom: null },
          { salary: 11_000_000n, currency: 'EUR', effectiveFrom: '2026-03-10' },
        ],
      }),
    );
    expect(currencies).toEqual({ skipped: 'currency_changed' });
    expect(computePayslip(inputs({ compensation: [] }))).toEqual({ skipped: 'no_compensation' });
    expect(computePayslip(inputs({ employments: [{ startDate: '2026-04-01', endDate: null }] }))).toEqual({
      skipped: 'starts_after_period',
    });
    expect(computePayslip(inputs({ employments: [{ startDate: null, endDate: '2026-02-28' }] }))).toBeUndefined();
    // A raise from the 10th in another currency, after the period: this month is paid in dollars.
    const later = computePayslip(
      inputs({
        compensation: [
          { salary: 12_000_000n, currency: USD, effectiveFrom: null },
          { salary: 11_000_000n, currency: 'EUR', effectiveFrom: '2026-04-10' },
        ],
      }),
    );
    expect(later).toMatchObject({ payslip: { currency: USD, grossAmount: 1_000_000n } });
  });
});

describe('what a month pays (defects of issue 25)', () => {
  it('pays 120,000.00 a year as 1,000,000 in February and in March (not 9,205.48 and 10,191.78)', async () => {
    const { employee, run } = await payrollOrg();
    const paid = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-06-01' });
    const february = await run('2026-02-01', '2026-02-28');
    const march = await run('2026-03-01', '2026-03-31');
    // 12,000,000 / 12 = 1,000,000 whatever the month's length.
    expect(itemOf(february, paid.id)).toMatchObject({ grossAmount: 1_000_000, netAmount: 1_000_000, currency: USD });
    expect(itemOf(march, paid.id)).toMatchObject({ grossAmount: 1_000_000, netAmount: 1_000_000 });
    expect(itemOf(february, paid.id).lines).toEqual([
      {
        kind: 'earning',
        code: 'salary',
        description: 'Salary 2026-02: 120000.00 USD a year / 12 (month 2, rounded cumulatively)',
        amount: 1_000_000,
      },
    ]);
    expect(itemOf(february, paid.id).basis).toEqual({
      daysPaid: 28,
      daysInPeriod: 28,
      compensation: [{ salary: 12_000_000, currency: USD, effectiveFrom: '2025-06-01' }],
    });
  });

  it('twelve monthly runs pay exactly the annual salary, for awkward salaries too', async () => {
    const { employee, run } = await payrollOrg();
    const round = await employee({ salary: 12_000_000, currency: USD, startDate: '2026-01-01' });
    const awkward = await employee({ salary: 100_000, currency: 'EUR', startDate: '2026-01-01' });
    const odd = await employee({ salary: 1_234_567, currency: 'JPY', startDate: '2026-01-01' });
    const runs: Body[] = [];
    for (let month = 1; month <= 12; month++) {
      const last = new Date(Date.UTC(2027, month, 0)).toISOString().slice(0, 10);
      runs.push(await run(`2027-${String(month).padStart(2, '0')}-01`, last));
    }
    const paid = (id: string) => runs.map((each) => itemOf(each, id).grossAmount as number);
    // The figures of the unit test above: 8,333 / 8,334 ... and 102,881 / 102,880 ...
    expect(paid(awkward.id)).toEqual([
      8_333, 8_334, 8_333, 8_333, 8_334, 8_333, 8_333, 8_334, 8_333, 8_333, 8_334, 8_333,
    ]);
    const sum = (amounts: number[]) => amounts.reduce((a, b) => a + b, 0);
    expect(sum(paid(round.id))).toBe(12_000_000); // was 11,999,998 by days over 365
    expect(sum(paid(awkward.id))).toBe(100_000);
    expect(sum(paid(odd.id))).toBe(1_234_567);
  });

  it('pays a leaver terminated on the 20th of a 30-day month 20/30 of a month, in that month and back-dated', async () => {
    const { employee, run, ok } = await payrollOrg();
    // Back-dated: terminated on 2026-06-20 (past), June's run made afterwards.
    const left = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    await ok('POST', `/hr/employees/${left.id}/terminate`, { endDate: '2026-06-20' });
    const june = await run('2026-06-01', '2026-06-30');
    // 1,000,000 × 20 / 30 = 666,666.67 -> 666,667
    expect(itemOf(june, left.id)).toMatchObject({
      grossAmount: 666_667,
      lines: [
        {
          code: 'salary',
          amount: 666_667,
          description: 'Salary 2026-06-01..2026-06-20: 10000.00 USD a month × 20/30 days',
        },
      ],
      basis: { daysPaid: 20, daysInPeriod: 30 },
    });
    expect(june.skippedEmployeeIds).toEqual([]);
    // This month's run (made before the leaver's last day, with their notice recorded): the same 20/30.
    const leaving = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    await ok('POST', `/hr/employees/${leaving.id}/terminate`, { endDate: '2027-04-20' });
    const april = await run('2027-04-01', '2027-04-30');
    expect(itemOf(april, leaving.id)).toMatchObject({ grossAmount: 666_667, basis: { daysPaid: 20 } });
    // Gone before April: in neither the items nor the skipped.
    expect(itemOf(april, left.id)).toBeUndefined();
    expect(april.skippedEmployeeIds).toEqual([]);
  });

  it('pays a joiner from the 16th, and lists one starting after the period as skipped, with why', async () => {
    const { employee, run } = await payrollOrg();
    const joiner = await employee({ salary: 12_000_000, currency: USD, startDate: '2026-07-16' });
    const later = await employee({ salary: 12_000_000, currency: USD, startDate: '2026-08-03' });
    const unpaid = await employee({ startDate: '2026-01-01' });
    const july = await run('2026-07-01', '2026-07-31');
    // 1,000,000 × 16 / 31 = 516,129.03 -> 516,129
    expect(july.items).toEqual([
      expect.objectContaining({
        employeeId: joiner.id,
        grossAmount: 516_129,
        basis: expect.objectContaining({ daysPaid: 16 }),
      }),
    ]);
    expect(july.skipped).toEqual([
      { employeeId: later.id, reason: 'starts_after_period' },
      { employeeId: unpaid.id, reason: 'no_compensation' },
    ]);
    expect(july.skippedEmployeeIds).toEqual([later.id, unpaid.id]);
  });

  it("names each payslip's and each skip's employee in the run's one GraphQL request (hr:read); a payroll-only key gets a forbidden field", async () => {
    const { org, key, employee, run } = await payrollOrg();
    const paid = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    const unpaid = await employee({ startDate: '2025-01-01' });
    const september = await run('2026-09-01', '2026-09-30');
    const query = `query ($id: ID!, $employee: ID!) {
      payrollRun(id: $id) { items { employeeId employee { id lastName } } skipped { employeeId employee { lastName } } }
      payslip(runId: $id, employeeId: $employee) { employee { email } } }`;
    const variables = { id: september.id, employee: paid.id };
    const answer = await server.gql(query, variables, { key });
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({
      payrollRun: {
        items: [{ employeeId: paid.id, employee: { id: paid.id, lastName: paid.lastName } }],
        skipped: [{ employeeId: unpaid.id, employee: { lastName: unpaid.lastName } }],
      },
      payslip: { employee: { email: paid.email } },
    });
    // Salaries without the people: the payslips answer, the names are refused.
    const payrollOnly = await server.gql(query, variables, { key: await org.key(['hr:payroll']) });
    expect(payrollOnly.data?.payrollRun).toMatchObject({ items: [{ employeeId: paid.id, employee: null }] });
    expect(payrollOnly.errors?.map((error) => error.extensions?.code)).toContain('FORBIDDEN');
  });

  it('does not pay a reinstated employee for the gap', async () => {
    const { employee, run, ok } = await payrollOrg();
    const back = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    await ok('POST', `/hr/employees/${back.id}/terminate`, { endDate: '2026-08-10' });
    await ok('POST', `/hr/employees/${back.id}/reinstate`, { startDate: '2026-08-21' });
    const august = await run('2026-08-01', '2026-08-31');
    // 1,000,000 × 10 / 31 = 322,580.65 -> 322,581; 1,000,000 × 11 / 31 = 354,838.71 -> 354,839; 11th..20th unpaid.
    expect(itemOf(august, back.id)).toMatchObject({
      grossAmount: 677_420,
      lines: [
        { amount: 322_581, description: 'Salary 2026-08-01..2026-08-10: 10000.00 USD a month × 10/31 days' },
        { amount: 354_839, description: 'Salary 2026-08-21..2026-08-31: 10000.00 USD a month × 11/31 days' },
      ],
      basis: { daysPaid: 21, daysInPeriod: 31 },
    });
  });

  it('prorates a raise effective the 16th into two lines, each compensation in the basis', async () => {
    const { employee, run, ok } = await payrollOrg();
    const raised = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    await ok('POST', '/hr/compensation', {
      employeeId: raised.id,
      salary: 18_000_000,
      currency: USD,
      effectiveFrom: '2026-03-16',
    });
    const march = await run('2026-03-01', '2026-03-31');
    // 1,000,000 × 15 / 31 = 483,870.97 -> 483,871; 18,000,000 / 12 = 1,500,000 × 16 / 31 = 774,193.55 -> 774,194
    expect(itemOf(march, raised.id)).toEqual({
      employeeId: raised.id,
      currency: USD,
      grossAmount: 1_258_065,
      deductionsAmount: 0,
      netAmount: 1_258_065,
      lines: [
        {
          kind: 'earning',
          code: 'salary',
          description: 'Salary 2026-03-01..2026-03-15: 10000.00 USD a month × 15/31 days',
          amount: 483_871,
        },
        {
          kind: 'earning',
          code: 'salary',
          description: 'Salary 2026-03-16..2026-03-31: 15000.00 USD a month × 16/31 days',
          amount: 774_194,
        },
      ],
      basis: {
        daysPaid: 31,
        daysInPeriod: 31,
        compensation: [
          { salary: 12_000_000, currency: USD, effectiveFrom: '2025-01-01' },
          { salary: 18_000_000, currency: USD, effectiveFrom: '2026-03-16' },
        ],
      },
    });
  });

  it('deducts approved unpaid leave (Mon-Wed, 3 days) as a negative earning; other leave is not', async () => {
    const { employee, run, leave } = await payrollOrg();
    const away = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    await leave(away.id, 'unpaid', '2026-03-02', '2026-03-04', 'approve'); // Monday to Wednesday
    await leave(away.id, 'unpaid', '2026-03-09', '2026-03-10', 'reject');
    await leave(away.id, 'unpaid', '2026-03-16', '2026-03-17'); // still requested
    await leave(away.id, 'vacation', '2026-03-23', '2026-03-24', 'approve'); // paid leave
    await leave(away.id, 'unpaid', '2026-04-01', '2026-04-02', 'approve'); // next month
    const march = await run('2026-03-01', '2026-03-31');
    // 1,000,000 × 3 / 31 = 96,774.19 -> 96,774, taken off the gross: 1,000,000 − 96,774 = 903,226.
    expect(itemOf(march, away.id)).toMatchObject({
      grossAmount: 903_226,
      deductionsAmount: 0,
      netAmount: 903_226,
      lines: [
        { kind: 'earning', code: 'salary', amount: 1_000_000 },
        {
          kind: 'earning',
          code: 'unpaid_leave',
          description: 'Unpaid leave 2026-03-02..2026-03-04: 10000.00 USD a month × 3/31 days',
          amount: -96_774,
        },
      ],
      basis: { daysPaid: 28, daysInPeriod: 31 },
    });
  });

  it('adds a fixed allowance and takes a 5% pension of the gross and a fixed garnishment', async () => {
    const { employee, run, ok, send } = await payrollOrg();
    const member = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    const component = (body: Body) =>
      ok('POST', '/hr/pay-components', { employeeId: member.id, from: '2026-01-01', ...body });
    await component({ kind: 'earning', code: 'meal_allowance', description: 'Meal allowance', amount: 50_000 });
    const pension = await component({ kind: 'deduction', code: 'pension', description: 'Pension', percentage: 5 });
    await component({ kind: 'deduction', code: 'garnishment', description: 'Court order', amount: 100_000 });
    expect(pension).toMatchObject({ percentage: 5, amount: null, to: null });
    const march = await run('2026-03-01', '2026-03-31');
    // Gross: 1,000,000 + 50,000 = 1,050,000. Pension 5% of 1,050,000 = 52,500; garnishment 100,000.
    // Net: 1,050,000 − 152,500 = 897,500.
    expect(itemOf(march, member.id)).toMatchObject({
      grossAmount: 1_050_000,
      deductionsAmount: 152_500,
      netAmount: 897_500,
      lines: [
        { kind: 'earning', code: 'salary', amount: 1_000_000 },
        {
          kind: 'earning',
          code: 'meal_allowance',
          description: 'Meal allowance 2026-03: 500.00 USD a month',
          amount: 50_000,
        },
        { kind: 'deduction', code: 'pension', description: 'Pension: 5% of gross 10500.00 USD', amount: 52_500 },
        {
          kind: 'deduction',
          code: 'garnishment',
          description: 'Court order 2026-03: 1000.00 USD a month',
          amount: 100_000,
        },
      ],
    });
    // The pension rises to 2.5% more from April (a new component after the old one ends), a bonus of 10%
    // of the salary paid from April 16th.
    await ok('PUT', `/hr/pay-components/${pension.id}`, { to: '2026-03-31' });
    await component({
      kind: 'deduction',
      code: 'pension',
      description: 'Pension',
      percentage: 7.5,
      from: '2026-04-01',
    });
    await component({
      kind: 'earning',
      code: 'bonus',
      description: 'Bonus',
      percentage: 10,
      from: '2026-04-16',
      to: '2026-04-30',
    });
    const april = await run('2026-04-01', '2026-04-30');
    // Salary 1,000,000 (April, 30 days). Bonus: 10% of 1,000,000 × 15/30 days = 50,000.
    // Gross 1,000,000 + 50,000 + 50,000 = 1,100,000. Pension 7.5% of 1,100,000 = 82,500. Net 1,100,000 − 182,500 = 917,500.
    expect(itemOf(april, member.id)).toMatchObject({
      grossAmount: 1_100_000,
      deductionsAmount: 182_500,
      netAmount: 917_500,
    });
    expect(itemOf(april, member.id).lines.map((line: Body) => [line.code, line.amount])).toEqual([
      ['salary', 1_000_000],
      ['meal_allowance', 50_000],
      ['bonus', 50_000],
      ['garnishment', 100_000],
      ['pension', 82_500],
    ]);
    expect(itemOf(april, member.id).lines[2].description).toBe(
      'Bonus: 10% of the salary paid 10000.00 USD × 15/30 days',
    );
    // An overlapping component of the same code is a 409 naming code.
    const overlapping = await send('POST', '/hr/pay-components', {
      employeeId: member.id,
      kind: 'deduction',
      code: 'pension',
      description: 'Pension again',
      percentage: 1,
      from: '2026-06-01',
    });
    expectError(overlapping, 409, 'CONFLICT', 'code');
  });
});

describe('pay components: what they take', () => {
  it('refuses neither or both of amount and percentage, a bad percentage or code, to before from (400 naming it)', async () => {
    const { employee, send } = await payrollOrg();
    const member = await employee({ salary: 1_200_000, currency: USD });
    const base = { employeeId: member.id, kind: 'earning', code: 'allowance', description: 'A', from: '2026-01-01' };
    const post = (body: Body) => send('POST', '/hr/pay-components', { ...base, ...body });
    expectError(await post({}), 400, 'VALIDATION_ERROR', 'amount');
    expectError(await post({ amount: 1, percentage: 1 }), 400, 'VALIDATION_ERROR', 'percentage');
    expectError(await post({ percentage: 2.555 }), 400, 'VALIDATION_ERROR', 'percentage');
    expectError(await post({ percentage: 0 }), 400, 'VALIDATION_ERROR', 'percentage');
    expectError(await post({ percentage: 100.5 }), 400, 'VALIDATION_ERROR', 'percentage');
    expectError(await post({ amount: 1, code: 'Meal allowance' }), 400, 'VALIDATION_ERROR', 'code');
    expectError(await post({ amount: 1, code: 'salary' }), 400, 'VALIDATION_ERROR', 'code');
    expectError(await post({ amount: 1, kind: 'bonus' }), 400, 'VALIDATION_ERROR', 'kind');
    expectError(await post({ amount: 1, to: '2025-12-31' }), 400, 'VALIDATION_ERROR', 'to');
    const made = await post({ percentage: 2.55 });
    expect(made.status, made.text).toBe(201);
    expect(made.body.percentage).toBe(2.55);
    // Switching from a percentage to an amount clears the other.
    const switched = await send('PUT', `/hr/pay-components/${made.body.id}`, {
      amount: 20_000,
      percentage: null,
    });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.body).toMatchObject({ amount: 20_000, percentage: null });
  });
});

describe('compensation history', () => {
  it('records the hire salary from the startDate (null: from the beginning), changes effective today, the history in order', async () => {
    const { employee, ok, send, org } = await payrollOrg();
    const hired = await employee({ salary: 6_000_000, currency: 'EUR', startDate: '2024-03-01' });
    const undated = await employee({ salary: 4_000_000, currency: 'EUR' });
    const history = async (id: string) => (await ok('GET', `/hr/employees/${id}/compensation`)).data as Body[];
    expect(await history(hired.id)).toEqual([
      {
        id: expect.stringMatching(/^cmp_[0-9a-z]{26}$/),
        employeeId: hired.id,
        salary: 6_000_000,
        currency: 'EUR',
        effectiveFrom: '2024-03-01',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    expect((await history(undated.id)).map((record) => record.effectiveFrom)).toEqual([null]);

    // A PUT of the salary is a change effective today in the organization's time zone (UTC+14 here).
    await server.prisma.$executeRaw`update "Organization" set "timeZone" = 'Pacific/Kiritimati' where id = ${org.id}`;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    const changed = await ok('PUT', `/hr/employees/${hired.id}`, { salary: 6_600_000 });
    expect(changed).toMatchObject({ salary: 6_600_000, currency: 'EUR' });
    // Corrected the same day: the same record.
    await ok('PUT', `/hr/employees/${hired.id}`, { salary: 6_500_000, currency: 'CHF' });
    const records = await history(hired.id);
    expect(records.map(({ salary, currency, effectiveFrom }) => [salary, currency, effectiveFrom])).toEqual([
      [6_000_000, 'EUR', '2024-03-01'],
      [6_500_000, 'CHF', today],
    ]);
    // A raise planned for later does not show before its day; the history is in effect order.
    await ok('POST', '/hr/compensation', {
      employeeId: hired.id,
      salary: 7_000_000,
      currency: 'CHF',
      effectiveFrom: '2099-01-01',
    });
    await ok('POST', '/hr/compensation', {
      employeeId: hired.id,
      salary: 5_000_000,
      currency: 'EUR',
      effectiveFrom: '2023-01-01',
    });
    expect((await ok('GET', `/hr/employees/${hired.id}`)).salary).toBe(6_500_000);
    expect((await history(hired.id)).map((record) => record.effectiveFrom)).toEqual([
      '2023-01-01',
      '2024-03-01',
      today,
      '2099-01-01',
    ]);
    // One record per day: 409 naming effectiveFrom, on create and on update.
    const twice = await send('POST', '/hr/compensation', {
      employeeId: hired.id,
      salary: 1,
      currency: 'EUR',
      effectiveFrom: '2024-03-01',
    });
    expectError(twice, 409, 'CONFLICT', 'effectiveFrom');
    const moved = await send('PUT', `/hr/compensation/${records[1]!.id}`, { effectiveFrom: '2024-03-01' });
    expectError(moved, 409, 'CONFLICT', 'effectiveFrom');
    // A salary is not cleared through the employee, and a currency needs one.
    expectError(await send('PUT', `/hr/employees/${hired.id}`, { salary: null }), 400, 'VALIDATION_ERROR', 'salary');
    const currencyOnly = await send('POST', '/hr/employees', {
      firstName: 'A',
      lastName: 'B',
      email: `currency-${++counter}@example.test`,
      currency: 'EUR',
    });
    expectError(currencyOnly, 400, 'VALIDATION_ERROR', 'salary');
    // Unknown or another organization's employee: 404.
    expectError(await send('GET', `/hr/employees/emp_${'0'.repeat(26)}/compensation`), 404, 'NOT_FOUND');
    const stranger = await (await payrollOrg()).employee({ salary: 1, currency: USD });
    expectError(await send('GET', `/hr/employees/${stranger.id}/compensation`), 404, 'NOT_FOUND');
  });

  it('shows the first salary of an employee who starts later, corrected in place before they start', async () => {
    const { employee, ok } = await payrollOrg();
    const future = await employee({ salary: 5_000_000, currency: USD, startDate: '2099-02-01' });
    expect(future.salary).toBe(5_000_000);
    await ok('PUT', `/hr/employees/${future.id}`, { salary: 5_500_000 });
    // Moving the start date moves the hire's record with it.
    await ok('PUT', `/hr/employees/${future.id}`, { startDate: '2099-03-01' });
    const { data } = await ok('GET', `/hr/employees/${future.id}/compensation`);
    expect(data.map((record: Body) => [record.salary, record.effectiveFrom])).toEqual([[5_500_000, '2099-03-01']]);
  });

  it('raises compensation events with the employee change that records them', async () => {
    const { employee, ok } = await payrollOrg();
    const hired = await employee({ salary: 3_000_000, currency: USD, startDate: '2025-01-01' });
    await ok('PUT', `/hr/employees/${hired.id}`, { salary: 3_300_000 });
    const events = (await ok('GET', '/events?limit=100')).data as Body[];
    const types = events
      .filter((event) => event.data.object.employeeId === hired.id || event.data.object.id === hired.id)
      .map((event) => [event.type, event.data.object.salary]);
    expect(types).toEqual([
      ['compensation.created', 3_000_000],
      ['employee.created', 3_000_000],
      ['compensation.created', 3_300_000],
      ['employee.updated', 3_300_000],
    ]);
    const updated = events.find((event) => event.type === 'employee.updated' && event.data.object.id === hired.id);
    expect(updated!.data.previousAttributes).toMatchObject({ salary: 3_000_000 });
  });
});

describe('runs', () => {
  it('one run per period: an overlapping one is a 409 naming periodStart, whatever the status; concurrent creates too', async () => {
    const { send, run, ok } = await payrollOrg();
    const january = await run('2026-01-01', '2026-01-31');
    const overlapping = await send('POST', '/hr/payroll-runs', { periodStart: '2026-01-15', periodEnd: '2026-02-14' });
    expectError(overlapping, 409, 'CONFLICT', 'periodStart');
    expect(overlapping.body.error.message).toContain(january.id);
    await ok('POST', `/hr/payroll-runs/${january.id}/process`);
    expectError(
      await send('POST', '/hr/payroll-runs', { periodStart: '2025-12-01', periodEnd: '2026-01-01' }),
      409,
      'CONFLICT',
      'periodStart',
    );
    await run('2026-02-01', '2026-02-28'); // the next period is its own
    const racing = await Promise.all(
      Array.from({ length: 6 }, () =>
        send('POST', '/hr/payroll-runs', { periodStart: '2026-03-01', periodEnd: '2026-03-31' }),
      ),
    );
    expect(racing.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('deletes a draft (204, payroll.deleted, the period free again); a processed run is a 409 naming status', async () => {
    const { send, run, ok, employee } = await payrollOrg();
    await employee({ salary: 1_200_000, currency: USD, startDate: '2025-01-01' });
    const draft = await run('2026-05-01', '2026-05-31');
    const deleted = await send('DELETE', `/hr/payroll-runs/${draft.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await send('GET', `/hr/payroll-runs/${draft.id}`), 404, 'NOT_FOUND');
    const events = (await ok('GET', '/events?limit=100')).data as Body[];
    const last = events.filter((event) => event.data.object.id === draft.id).map((event) => event.type);
    expect(last).toEqual(['payroll.created', 'payroll.deleted']);
    const again = await run('2026-05-01', '2026-05-31');
    await ok('POST', `/hr/payroll-runs/${again.id}/process`);
    const refused = await send('DELETE', `/hr/payroll-runs/${again.id}`);
    expectError(refused, 409, 'CONFLICT', 'status');
    expect(refused.body.error.message).toContain('processed');
    expect((await ok('GET', `/hr/payroll-runs/${again.id}`)).items).toHaveLength(1);
  });

  it('recalculates a draft: a new employee, a changed compensation, new leave; a processed run is a 409', async () => {
    const { send, run, ok, employee, leave } = await payrollOrg();
    const first = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    const draft = await run('2026-09-01', '2026-09-30');
    expect(draft.items.map((item: Body) => [item.employeeId, item.grossAmount])).toEqual([[first.id, 1_000_000]]);
    const second = await employee({ salary: 6_000_000, currency: USD, startDate: '2026-09-16' });
    const { data } = await ok('GET', `/hr/employees/${first.id}/compensation`);
    await ok('PUT', `/hr/compensation/${data[0].id}`, { salary: 24_000_000 });
    await leave(second.id, 'unpaid', '2026-09-28', '2026-09-29', 'approve');
    const recalculated = await ok('POST', `/hr/payroll-runs/${draft.id}/recalculate`);
    // First: 24,000,000 / 12 = 2,000,000. Second: 500,000 × 15/30 = 250,000, less 500,000 × 2/30 = 33,333.33 -> 33,333.
    expect(recalculated.items.map((item: Body) => [item.employeeId, item.grossAmount])).toEqual([
      [first.id, 2_000_000],
      [second.id, 216_667],
    ]);
    expect(recalculated).toMatchObject({ id: draft.id, status: 'draft', createdAt: draft.createdAt });
    expect(await ok('GET', `/hr/payroll-runs/${draft.id}`)).toEqual(recalculated);
    const events = ((await ok('GET', '/events?limit=100')).data as Body[]).filter(
      (event) => event.data.object.id === draft.id,
    );
    expect(events.map((event) => event.type)).toEqual(['payroll.created', 'payroll.recalculated']);
    expect(events[1]!.data.object).toEqual(recalculated);
    await ok('POST', `/hr/payroll-runs/${draft.id}/process`);
    const refused = await send('POST', `/hr/payroll-runs/${draft.id}/recalculate`);
    expectError(refused, 409, 'CONFLICT', 'status');
  });

  it('answers one payslip: the item with the run dates; 404 for an employee without one or an unknown run', async () => {
    const { send, run, ok, employee } = await payrollOrg();
    const paid = await employee({ salary: 12_000_000, currency: USD, startDate: '2025-01-01' });
    const unpaid = await employee({ startDate: '2025-01-01' });
    const october = await run('2026-10-01', '2026-10-31');
    const payslip = await ok('GET', `/hr/payroll-runs/${october.id}/payslips/${paid.id}`);
    expect(payslip).toEqual({
      ...itemOf(october, paid.id),
      runId: october.id,
      periodStart: '2026-10-01',
      periodEnd: '2026-10-31',
      payDate: '2026-10-31',
      status: 'draft',
    });
    expectError(await send('GET', `/hr/payroll-runs/${october.id}/payslips/${unpaid.id}`), 404, 'NOT_FOUND');
    expectError(await send('GET', `/hr/payroll-runs/pay_${'0'.repeat(26)}/payslips/${paid.id}`), 404, 'NOT_FOUND');
    const graphql = await server.gql(
      `query ($run: ID!, $employee: ID!) { payslip(runId: $run, employeeId: $employee) {
         netAmount lines { code amount } basis { daysPaid compensation { salary } } } }`,
      { run: october.id, employee: paid.id },
      { key: (await payrollOrg()).key },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND'); // another organization's key
  });

  it('needs hr:payroll: a key with hr:read and hr:write gets 403 on runs, compensation, pay components and payslips', async () => {
    const { org, employee, run } = await payrollOrg();
    const paid = await employee({ salary: 1_200_000, currency: USD });
    const theRun = await run('2026-11-01', '2026-11-30');
    const hrOnly = await org.key(['hr:read', 'hr:write']);
    const requests: [string, string, unknown?][] = [
      ['GET', '/v1/hr/payroll-runs'],
      ['POST', '/v1/hr/payroll-runs', { periodStart: '2026-12-01', periodEnd: '2026-12-31' }],
      ['GET', `/v1/hr/payroll-runs/${theRun.id}`],
      ['POST', `/v1/hr/payroll-runs/${theRun.id}/recalculate`],
      ['DELETE', `/v1/hr/payroll-runs/${theRun.id}`],
      ['GET', `/v1/hr/payroll-runs/${theRun.id}/payslips/${paid.id}`],
      ['GET', '/v1/hr/compensation'],
      ['POST', '/v1/hr/compensation', { employeeId: paid.id, salary: 1, currency: USD, effectiveFrom: '2026-01-01' }],
      ['GET', `/v1/hr/employees/${paid.id}/compensation`],
      ['GET', '/v1/hr/pay-components'],
      [
        'POST',
        '/v1/hr/pay-components',
        { employeeId: paid.id, kind: 'earning', code: 'x', description: 'x', amount: 1, from: '2026-01-01' },
      ],
    ];
    for (const [method, path, body] of requests) {
      const res = await server.rest(method, path, { key: hrOnly, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
      expect(res.body.error.message).toContain('hr:payroll');
    }
    // admin implies it.
    const admin = await org.key(['admin']);
    expect((await server.rest('GET', '/v1/hr/payroll-runs', { key: admin })).status).toBe(200);
  });
});

describe('a whole month, to the cent', () => {
  it('a joiner, a leaver with notice, a raise on the 16th, unpaid leave, a pension and a holiday: every payslip by hand', async () => {
    const { employee, run, ok, leave } = await payrollOrg();
    // The company's calendar: Friday 18 June 2027 is a holiday; vacation is 20 days a year.
    await ok('POST', '/hr/holidays', { date: '2027-06-18', name: 'Founders day' });
    await ok('POST', '/hr/leave-policies', { type: 'vacation', daysPerYear: 20, accrual: 'yearly', carryOverDays: 0 });
    // June 2027: 30 days.
    const steady = await employee({ salary: 6_000_000, currency: USD, startDate: '2020-01-01' });
    const joiner = await employee({ salary: 4_800_000, currency: USD, startDate: '2027-06-07' });
    const leaver = await employee({ salary: 3_600_000, currency: USD, startDate: '2021-05-01' });
    await ok('POST', `/hr/employees/${leaver.id}/terminate`, { endDate: '2027-06-11' });
    await ok('POST', '/hr/compensation', {
      employeeId: steady.id,
      salary: 7_200_000,
      currency: USD,
      effectiveFrom: '2027-06-16',
    });
    await leave(joiner.id, 'unpaid', '2027-06-21', '2027-06-22', 'approve'); // Monday, Tuesday
    // Thursday 17 to Monday 21: Friday is the holiday, then the weekend, so 2 working days of paid vacation.
    const vacation = await leave(steady.id, 'vacation', '2027-06-17', '2027-06-21', 'approve');
    expect(vacation.days).toBe(2);
    for (const member of [steady, joiner, leaver]) {
      await ok('POST', '/hr/pay-components', {
        employeeId: member.id,
        kind: 'deduction',
        code: 'pension',
        description: 'Pension',
        percentage: 5,
        from: '2020-01-01',
      });
    }
    const june = await run('2027-06-01', '2027-06-30');
    const summary = (id: string) => {
      const item = itemOf(june, id);
      return [item.grossAmount, item.deductionsAmount, item.netAmount, item.lines.map((line: Body) => line.amount)];
    };
    // Steady: 500,000 × 15/30 = 250,000; 600,000 × 15/30 = 300,000; gross 550,000; pension 5% = 27,500.
    expect(summary(steady.id)).toEqual([550_000, 27_500, 522_500, [250_000, 300_000, 27_500]]);
    // Joiner from the 7th: 400,000 × 24/30 = 320,000; unpaid leave 400,000 × 2/30 = 26,666.67 -> −26,667;
    // gross 293,333; pension 5% = 14,666.65 -> 14,667; net 278,666.
    expect(summary(joiner.id)).toEqual([293_333, 14_667, 278_666, [320_000, -26_667, 14_667]]);
    // Leaver to the 11th: 300,000 × 11/30 = 110,000; pension 5,500; net 104,500.
    expect(summary(leaver.id)).toEqual([110_000, 5_500, 104_500, [110_000, 5_500]]);
    expect(itemOf(june, joiner.id).basis).toMatchObject({ daysPaid: 22, daysInPeriod: 30 });
    // The leaver is still under notice (active until the 11th ends) and paid to the 11th only.
    expect(await ok('GET', `/hr/employees/${leaver.id}`)).toMatchObject({ status: 'active', endDate: '2027-06-11' });
    // Paid vacation takes nothing off the pay (above) and 2 days off the 20 of 2027.
    const balances = await ok('GET', `/hr/employees/${steady.id}/leave-balances?date=2027-06-30`);
    expect(balances.data.find((row: Body) => row.type === 'vacation')).toMatchObject({
      entitledDays: 20,
      takenDays: 2,
      remainingDays: 18,
    });
  });
});
