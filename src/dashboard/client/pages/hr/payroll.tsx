// Payroll: the runs, newest period first, with their totals; `New payroll run`
// asks for a period and a pay date (the month after the latest run by
// default) and opens the run, its payslips computed by the server.
import { graphql } from '../../api.js';
import { navigate, setQuery, useLocation } from '../../route.js';
import type { PageProps } from '../../section.js';
import {
  ErrorMessage,
  Field,
  formatDate,
  formatDateTime,
  formatMoney,
  Link,
  Loaded,
  Pager,
  PageHeader,
  StatusBadge,
  useQuery,
  useSubmit,
} from '../../ui.js';
import { addMonths, firstDay, lastDay, monthOf, todayIn } from './dates.js';
import { useOrganization } from './organization.js';
import { totalsOf, type PayrollRun } from './payroll-types.js';
import './hr.css';

const LIMIT = 20;
type RunRow = Pick<PayrollRun, 'id' | 'periodStart' | 'periodEnd' | 'payDate' | 'status' | 'processedAt'> & {
  items: PayrollRun['items'];
  skippedEmployeeIds: string[];
};

const RUNS = `query PayrollRuns($page: Int, $limit: Int) {
  payrollRuns(sort: periodStart_desc, page: $page, limit: $limit) {
    data { id periodStart periodEnd payDate status processedAt skippedEmployeeIds
      items { employeeId currency grossAmount deductionsAmount netAmount } }
    pagination { page limit total }
  }
}`;

export const runTitle = (run: Pick<PayrollRun, 'periodStart' | 'periodEnd'>) =>
  `Payroll ${formatDate(run.periodStart)} – ${formatDate(run.periodEnd)}`;

export function PayrollPage(_: PageProps) {
  const { query } = useLocation();
  const runs = useQuery<{
    payrollRuns: { data: RunRow[]; pagination: { page: number; limit: number; total: number } };
  }>(RUNS, { page: Number(query.get('page')) || 1, limit: LIMIT });
  return (
    <>
      <PageHeader title="Payroll">
        <Link class="button" href="/hr/payroll-runs/new">
          New payroll run
        </Link>
      </PageHeader>
      <Loaded query={runs}>
        {({ payrollRuns }) =>
          payrollRuns.data.length ? (
            <>
              <RunTable runs={payrollRuns.data} />
              <Pager {...payrollRuns.pagination} onPage={(next) => setQuery({ page: next })} />
            </>
          ) : (
            <p class="empty panel">
              No payroll runs yet. <strong>New payroll run</strong> computes a payslip for everyone employed in a
              period.
            </p>
          )
        }
      </Loaded>
    </>
  );
}

function RunTable({ runs }: { runs: RunRow[] }) {
  return (
    <div class="table-wrap">
      <table class="stack-narrow desk-table">
        <caption class="visually-hidden">Payroll runs, newest period first</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col">Pay date</th>
            <th scope="col">Status</th>
            <th scope="col" class="number">
              Payslips
            </th>
            <th scope="col" class="number">
              Net pay
            </th>
            <th scope="col">Processed</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td data-label="Period">
                <Link href={`/hr/payroll-runs/${run.id}`}>
                  {formatDate(run.periodStart)} – {formatDate(run.periodEnd)}
                </Link>
              </td>
              <td data-label="Pay date">{formatDate(run.payDate)}</td>
              <td data-label="Status">
                <StatusBadge value={run.status} />
              </td>
              <td data-label="Payslips" class="number">
                {run.items.length}
                {run.skippedEmployeeIds.length > 0 && (
                  <span class="detail">{run.skippedEmployeeIds.length} not paid</span>
                )}
              </td>
              <td data-label="Net pay" class="number">
                {totalsOf(run.items).map((total) => (
                  <span key={total.currency} class="amount-line">
                    {formatMoney(total.netAmount, total.currency)}
                  </span>
                ))}
                {run.items.length === 0 && '—'}
              </td>
              <td data-label="Processed">{formatDateTime(run.processedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const LATEST = `query LatestRun { payrollRuns(sort: periodEnd_desc, limit: 1) { data { periodEnd } } }`;
const CREATE = `mutation CreatePayrollRun($input: CreatePayrollRunInput!) { createPayrollRun(input: $input) { id } }`;
const FIELDS = ['periodStart', 'periodEnd', 'payDate'];

export function NewPayrollRunPage(_: PageProps) {
  const organization = useOrganization();
  const latest = useQuery<{ payrollRuns: { data: { periodEnd: string }[] } }>(LATEST);
  const both = {
    ...latest,
    data: organization.data && latest.data && { ...organization.data, ...latest.data },
    error: organization.error ?? latest.error,
  };
  return (
    <>
      <p>
        <Link href="/hr/payroll">← Payroll</Link>
      </p>
      <PageHeader title="New payroll run" />
      <Loaded query={both}>
        {({ organization, payrollRuns }) => {
          // The month after the latest run's, else this month.
          const previous = payrollRuns.data[0]?.periodEnd;
          const month = previous ? addMonths(monthOf(previous), 1) : monthOf(todayIn(organization.timeZone));
          return <NewRunForm start={firstDay(month)} end={lastDay(month)} />;
        }}
      </Loaded>
    </>
  );
}

function NewRunForm({ start, end }: { start: string; end: string }) {
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const input: Record<string, string> = {};
    for (const name of FIELDS) {
      const value = String(data.get(name) ?? '').trim();
      if (value) input[name] = value;
    }
    const { createPayrollRun } = await graphql<{ createPayrollRun: { id: string } }>(CREATE, { input });
    navigate(`/hr/payroll-runs/${createPayrollRun.id}`);
  });
  return (
    <form
      class="stacked panel"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    >
      <p class="muted">
        The server computes a payslip for everyone employed in the period, from their salaries, approved unpaid leave
        and pay components. The run stays a draft (recalculate or delete it) until you process it.
      </p>
      <ErrorMessage error={formError(FIELDS)} />
      <Field
        label="Period start"
        name="periodStart"
        type="date"
        required
        defaultValue={start}
        error={fieldError('periodStart')}
      />
      <Field
        label="Period end"
        name="periodEnd"
        type="date"
        required
        defaultValue={end}
        hint="The last day paid (inclusive); at most 366 days after the start."
        error={fieldError('periodEnd')}
      />
      <Field
        label="Pay date"
        name="payDate"
        type="date"
        hint="Empty: the period's last day."
        error={fieldError('payDate')}
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Computing payslips…' : 'Create payroll run'}
        </button>
        <Link class="button secondary" href="/hr/payroll">
          Cancel
        </Link>
      </div>
    </form>
  );
}
