// Leave balances read from the database: an employee's periods of employment,
// the organization's leave policies and the employee's approved and pending
// requests, given to the rules of balance.ts. The approval of a leave request
// holds it to its balance here (requireLeaveBalance), in its transaction.
import type { Principal } from '../../../auth/principal.js';
import { DomainError, notFound } from '../../../errors.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { requireWellFormedId } from '../../kit/records.js';
import { organizationToday } from '../calendar/today.js';
import { loadCalendar } from '../calendar/working-days.js';
import type { Period } from '../leave-request/employment.js';
import { POLICY_TYPES, type PolicyType } from '../leave-policy/type.js';
import { balanceOf, daysByYear, yearOf, type Balance, type BalanceInput, type PolicyTerms } from './balance.js';
import type { LeaveBalance, LeaveBalanceList } from './type.js';
import { employees } from '../employee/index.js';

type Query = Pick<RuleContext, 'organizationId' | 'query'>;

interface EmployeeFacts {
  periods: Period[];
  firstYear: number;
}

/** The employee's periods and first year (its first period's start, else its record's creation); undefined: none such. */
async function employeeFacts(db: Query, employeeId: string): Promise<EmployeeFacts | undefined> {
  const [row] = await db.query<{ periods: Period[]; created: number }>(
    `select extract(year from e."createdAt" at time zone o."timeZone")::int as created,
       (select coalesce(jsonb_agg(jsonb_build_object('startDate', to_char(p."startDate", 'YYYY-MM-DD'),
          'endDate', to_char(p."endDate", 'YYYY-MM-DD')) order by p.seq), '[]'::jsonb)
        from "Employment" p where p."employeeId" = e.id) as periods
     from "Employee" e join "Organization" o on o.id = e."organizationId"
     where e.id = $1 and e."organizationId" = $2`,
    [employeeId, db.organizationId],
  );
  if (!row) return undefined;
  const start = row.periods[0]?.startDate;
  // No periods recorded: employed since before anything we know.
  const periods = row.periods.length ? row.periods : [{ startDate: null, endDate: null }];
  return { periods, firstYear: start ? yearOf(start) : row.created };
}

async function policiesOf(db: Query, type?: string): Promise<PolicyTerms[]> {
  return db.query<PolicyTerms>(
    `select type, "fromYear", "daysPerYear", accrual, "carryOverDays", "allowNegative"
     from "LeavePolicy" where "organizationId" = $1 and ($2::text is null or type = $2) order by type, "fromYear"`,
    [db.organizationId, type ?? null],
  );
}

interface RequestRow {
  type: PolicyType;
  status: 'approved' | 'requested';
  from: string;
  to: string;
  days: number;
}

/** The employee's approved and pending requests of the policy types (of `type`), but `except`. */
async function requestsOf(db: Query, employeeId: string, type?: string, except?: string): Promise<RequestRow[]> {
  return db.query<RequestRow>(
    `select type, status, to_char("from", 'YYYY-MM-DD') as "from", to_char("to", 'YYYY-MM-DD') as "to", days
     from "LeaveRequest" where "organizationId" = $1 and "employeeId" = $2 and status in ('approved', 'requested')
       and type <> 'unpaid' and ($3::text is null or type = $3) and id is distinct from $4`,
    [db.organizationId, employeeId, type ?? null, except ?? null],
  );
}

/** The days of each request by year: a request over New Year split with the calendar as it is now. */
async function splitByYear(db: Query, request: Pick<RequestRow, 'from' | 'to' | 'days'>) {
  const spans = yearOf(request.from) !== yearOf(request.to);
  return daysByYear(request, spans ? await loadCalendar(db, request.from, request.to) : undefined);
}

type Usage = Map<string, { taken: Map<number, number>; requested: Map<number, number> }>;

/** Approved (taken) and pending (requested) days by type and year. */
async function usageOf(db: Query, requests: RequestRow[]): Promise<Usage> {
  const usage: Usage = new Map();
  for (const request of requests) {
    let entry = usage.get(request.type);
    if (!entry) usage.set(request.type, (entry = { taken: new Map(), requested: new Map() }));
    const counts = request.status === 'approved' ? entry.taken : entry.requested;
    for (const [year, days] of await splitByYear(db, request)) counts.set(year, (counts.get(year) ?? 0) + days);
  }
  return usage;
}

function inputOf(facts: EmployeeFacts, policies: PolicyTerms[], usage: Usage, type: string): BalanceInput {
  const used = usage.get(type);
  return {
    policies: policies.filter((policy) => policy.type === type),
    periods: facts.periods,
    firstYear: facts.firstYear,
    taken: used?.taken ?? new Map(),
    requested: used?.requested ?? new Map(),
  };
}

const publicBalance = ({ allowNegative: _allowNegative, ...balance }: Balance): LeaveBalance => balance;

export class LeaveBalanceService {
  constructor(private readonly db: ServiceDependencies) {}

  /** The employee's balances of `date`'s year (default today in the organization's time zone), as of that date. */
  async balances(principal: Principal, employeeId: string, date?: string | null): Promise<LeaveBalanceList> {
    requireWellFormedId(employees.resource.idPrefix, 'Employee', employeeId);
    const db: Query = {
      organizationId: principal.organizationId,
      query: async (text, values) => (await this.db.pool.query(text, values)).rows,
    };
    const facts = await employeeFacts(db, employeeId);
    if (!facts) throw notFound('Employee');
    const asOf = date ?? (await organizationToday(db));
    const [policies, usage] = await Promise.all([
      policiesOf(db),
      requestsOf(db, employeeId).then((r) => usageOf(db, r)),
    ]);
    const data = POLICY_TYPES.flatMap((type) => {
      const balance = balanceOf(inputOf(facts, policies, usage, type), yearOf(asOf), asOf);
      return balance ? [publicBalance(balance)] : [];
    });
    return { data };
  }
}

/**
 * Refuses (409 naming `days`) to approve `request` when its working days
 * would take a year's balance of its type below zero, unless the policy in
 * force that year allows it. A type without a policy, and unpaid leave, are not
 * limited. Each year's entitlement is counted as of the request's last day in
 * it. Run in the approval's transaction, the employee's row locked.
 */
export async function requireLeaveBalance(
  rules: RuleContext,
  request: { id: string; employeeId: string; type: string; from: string; to: string; days: number },
): Promise<void> {
  if (!(POLICY_TYPES as readonly string[]).includes(request.type)) return;
  const policies = await policiesOf(rules, request.type);
  if (policies.length === 0) return;
  const facts = await employeeFacts(rules, request.employeeId);
  if (!facts) return;
  const usage = await usageOf(rules, await requestsOf(rules, request.employeeId, request.type, request.id));
  const input = inputOf(facts, policies, usage, request.type);
  for (const [year, days] of await splitByYear(rules, request)) {
    const asOf = request.to < `${year}-12-31` ? request.to : `${year}-12-31`;
    const balance = balanceOf(input, year, asOf);
    if (!balance || balance.allowNegative || days <= balance.remainingDays) continue;
    throw new DomainError(
      'CONFLICT',
      `It takes ${days} ${request.type} day${days === 1 ? '' : 's'} of ${year} but ${balance.remainingDays} remain ` +
        `(entitled ${balance.entitledDays} by ${asOf}, taken ${balance.takenDays})`,
      'days',
    );
  }
}
