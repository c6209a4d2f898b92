// The time-off rules without a database, with dates worked out on a calendar:
// working days (the working week less the holidays), a leave's place in the
// employment, and the leave balance rules (proration, monthly accrual,
// carry-over, a request split over New Year).
import { describe, expect, it } from 'vitest';
import { addDays, countWorkingDays, isoWeekday, workingDates } from '../src/graphql/hr/calendar/working-days.js';
import {
  accruedDays,
  balanceOf,
  carriedInto,
  daysByYear,
  employedDays,
  policyFor,
  type BalanceInput,
  type PolicyTerms,
} from '../src/graphql/hr/leave-balance/balance.js';
import { outsideEmployment } from '../src/graphql/hr/leave-request/employment.js';

const MON_FRI = new Set([1, 2, 3, 4, 5]);
const calendar = (holidays: string[] = [], weekdays = MON_FRI) => ({ weekdays, holidays: new Set(holidays) });

describe('working days', () => {
  it('knows the weekday of a date (ISO: 1 Monday .. 7 Sunday)', () => {
    expect(isoWeekday('2026-12-24')).toBe(4); // a Thursday
    expect(isoWeekday('2026-12-27')).toBe(7); // a Sunday
    expect(isoWeekday('2026-12-28')).toBe(1); // a Monday
    expect(isoWeekday('2028-02-29')).toBe(2); // a leap day, a Tuesday
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });

  it('24 to 28 December 2026 over Monday to Friday with Christmas a holiday: Thursday 24 and Monday 28', () => {
    expect(workingDates('2026-12-24', '2026-12-28', calendar(['2026-12-25']))).toEqual(['2026-12-24', '2026-12-28']);
    // Without the holiday, Friday 25 counts too.
    expect(countWorkingDays('2026-12-24', '2026-12-28', calendar())).toBe(3);
  });

  it('a weekend, or a holiday alone, has no working day', () => {
    expect(workingDates('2026-12-26', '2026-12-27', calendar())).toEqual([]);
    expect(workingDates('2026-12-25', '2026-12-25', calendar(['2026-12-25']))).toEqual([]);
  });

  it('follows the working week given: Sunday to Thursday counts Sunday 27, not Friday 25', () => {
    const sundayToThursday = new Set([7, 1, 2, 3, 4]);
    expect(workingDates('2026-12-24', '2026-12-28', calendar([], sundayToThursday))).toEqual([
      '2026-12-24',
      '2026-12-27',
      '2026-12-28',
    ]);
  });

  it('crosses months, years and a leap day', () => {
    // Thursday 31 December, (Friday 1 January a holiday), Monday 4 January.
    expect(workingDates('2026-12-31', '2027-01-04', calendar(['2027-01-01']))).toEqual(['2026-12-31', '2027-01-04']);
    // Monday 28 February, Tuesday 29, Wednesday 1 March 2028.
    expect(countWorkingDays('2028-02-28', '2028-03-01', calendar())).toBe(3);
    // A whole year of Mondays to Fridays: 2026 has 261 of them.
    expect(countWorkingDays('2026-01-01', '2026-12-31', calendar())).toBe(261);
  });
});

describe('leave within the employment', () => {
  const hired = { startDate: '2026-07-01', endDate: '2026-09-30' };
  const back = { startDate: '2026-11-02', endDate: null };

  it('is inside when one period holds every day', () => {
    expect(outsideEmployment([hired, back], '2026-07-01', '2026-09-30', false)).toBeUndefined();
    expect(outsideEmployment([hired, back], '2026-11-02', '2027-03-01', false)).toBeUndefined();
    expect(outsideEmployment([{ startDate: null, endDate: null }], '1999-01-01', '2099-01-01', false)).toBeUndefined();
  });

  it('names from before the start, in a gap, or after the end; to when only the end is past a period', () => {
    expect(outsideEmployment([hired], '2026-06-29', '2026-07-02', false)).toMatchObject({ field: 'from' });
    expect(outsideEmployment([hired, back], '2026-10-12', '2026-10-13', false)).toMatchObject({ field: 'from' });
    expect(outsideEmployment([hired, back], '2026-09-29', '2026-11-03', false)).toMatchObject({ field: 'to' });
    expect(outsideEmployment([hired], '2026-10-01', '2026-10-02', true)).toMatchObject({
      field: 'from',
      message: expect.stringContaining('terminated on 2026-09-30'),
    });
  });
});

const policy = (terms: Partial<PolicyTerms> = {}): PolicyTerms => ({
  type: 'vacation',
  fromYear: null,
  daysPerYear: 20,
  accrual: 'yearly',
  carryOverDays: 0,
  allowNegative: false,
  ...terms,
});

describe('leave balances', () => {
  const always = [{ startDate: null, endDate: null }];
  const julyJoiner = [{ startDate: '2026-07-01', endDate: null }];

  it('prorates a joiner on 1 July: 20 days a year × 184 of 365 days = 10.08, so 10', () => {
    expect(employedDays(julyJoiner, '2026-01-01', '2026-12-31')).toBe(184);
    expect(accruedDays(policy(), julyJoiner, 2026, '2026-07-01')).toBe(10);
    expect(accruedDays(policy(), always, 2026, '2026-01-01')).toBe(20);
    // A leaver on 31 March 2026 (90 days): 20 × 90 / 365 = 4.93, so 5.
    expect(accruedDays(policy(), [{ startDate: null, endDate: '2026-03-31' }], 2026, '2026-03-31')).toBe(5);
  });

  it('accrues monthly a twelfth for each month begun by the date asked about', () => {
    const monthly = policy({ daysPerYear: 12, accrual: 'monthly' });
    expect(accruedDays(monthly, always, 2026, '2026-01-01')).toBe(1);
    expect(accruedDays(monthly, always, 2026, '2026-03-15')).toBe(3);
    expect(accruedDays(monthly, always, 2026, '2026-12-31')).toBe(12);
    // A year over: all twelve months.
    expect(accruedDays(monthly, always, 2025, '2026-03-15')).toBe(12);
    // The July joiner: July, August, September by 1 September.
    expect(accruedDays(monthly, julyJoiner, 2026, '2026-09-01')).toBe(3);
    // 20 a year by 15 February: 2 × 20 / 12 = 3.33, so 3.
    expect(accruedDays(policy({ accrual: 'monthly' }), always, 2026, '2026-02-15')).toBe(3);
  });

  it('carries over the unused days of the year before, up to carryOverDays', () => {
    const input = (taken: [number, number][], carryOverDays = 5): BalanceInput => ({
      policies: [policy({ carryOverDays })],
      periods: [{ startDate: '2025-01-01', endDate: null }],
      firstYear: 2025,
      taken: new Map(taken),
      requested: new Map(),
    });
    // 20 − 12 = 8 unused in 2025: 5 carry.
    expect(carriedInto(input([[2025, 12]]), 2026)).toBe(5);
    // 20 − 18 = 2 unused: 2 carry.
    expect(carriedInto(input([[2025, 18]]), 2026)).toBe(2);
    // More than the year's days taken: nothing carries, nothing is owed.
    expect(carriedInto(input([[2025, 22]]), 2026)).toBe(0);
    // Nothing before the first year.
    expect(carriedInto(input([]), 2025)).toBe(0);
    // 2027 gets 2026's leftover, which counts what 2025 carried: 20 + 5 − 21 = 4.
    expect(
      carriedInto(
        input([
          [2025, 12],
          [2026, 21],
        ]),
        2027,
      ),
    ).toBe(4);
    expect(
      balanceOf(
        input([
          [2025, 12],
          [2026, 3],
        ]),
        2026,
        '2026-06-30',
      ),
    ).toEqual({
      type: 'vacation',
      year: 2026,
      entitledDays: 25,
      carriedOverDays: 5,
      takenDays: 3,
      requestedDays: 0,
      remainingDays: 22,
      allowNegative: false,
    });
  });

  it('applies the policy of the latest fromYear on or before the year', () => {
    const policies = [policy({ daysPerYear: 20 }), policy({ daysPerYear: 25, fromYear: 2027 })];
    expect(policyFor(policies, 2026)?.daysPerYear).toBe(20);
    expect(policyFor(policies, 2027)?.daysPerYear).toBe(25);
    expect(policyFor(policies, 2030)?.daysPerYear).toBe(25);
    expect(policyFor([policy({ fromYear: 2027 })], 2026)).toBeUndefined();
  });

  it('splits a request over New Year by the working days of each part', () => {
    // Monday 28 to Thursday 31 December 2026: 4 days; Friday 1 January 2027 a holiday; Monday 4, Tuesday 5: 2.
    const request = { from: '2026-12-28', to: '2027-01-05', days: 6 };
    expect(daysByYear(request, calendar(['2027-01-01']))).toEqual(
      new Map([
        [2026, 4],
        [2027, 2],
      ]),
    );
    expect(daysByYear({ from: '2026-12-21', to: '2026-12-23', days: 3 })).toEqual(new Map([[2026, 3]]));
  });
});
