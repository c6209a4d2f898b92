// A payroll run: its period, pay date and state, the totals, a payslip per
// employee (gross, deductions, net, and every line with how it was worked
// out), who it does not pay and why; `Process` (after a confirmation: a
// processed run cannot change), `Recalculate` and `Delete` while a draft,
// each disabled with the reason once processed.
import { graphql } from '../../api.js';
import { navigate } from '../../route.js';
import { can, type PageProps } from '../../section.js';
import {
  ErrorMessage,
  formatDate,
  formatDateTime,
  formatMoney,
  Link,
  Loaded,
  PageHeader,
  StatusBadge,
  useQuery,
  useSubmit,
} from '../../ui.js';
import { RecordHistory } from '../../records/history.js';
import { ActionButton } from '../../action-button.js';
import { runTitle } from './payroll.js';
import { PayslipLines } from './payslip-lines.js';
import { runFields, SKIP_REASONS, totalsOf, type PayrollItem, type PayrollRun } from './payroll-types.js';
import { fullName, PersonLink, type Person } from './people.js';
import './hr.css';

const runQuery = (withPeople: boolean) =>
  `query PayrollRun($id: ID!) { payrollRun(id: $id) { ${runFields(withPeople)} } }`;
const PROCESS = `mutation ProcessPayrollRun($id: ID!) { processPayrollRun(id: $id) { id } }`;
const RECALCULATE = `mutation RecalculatePayrollRun($id: ID!) { recalculatePayrollRun(id: $id) { id } }`;
const DELETE = `mutation DeletePayrollRun($id: ID!) { deletePayrollRun(id: $id) }`;

export function PayrollRunPage({ params, viewer }: PageProps) {
  const run = useQuery<{ payrollRun: PayrollRun }>(runQuery(can(viewer, 'hr:read')), { id: params.id });
  return (
    <>
      <p>
        <Link href="/hr/payroll">← Payroll</Link>
      </p>
      <Loaded query={run}>{({ payrollRun }) => <Run run={payrollRun} reload={run.reload} />}</Loaded>
    </>
  );
}

function Run({ run, reload }: { run: PayrollRun; reload: () => void }) {
  const people = new Map([...run.items, ...run.skipped].map((row) => [row.employeeId, row.employee] as const));
  const process = useSubmit(async () => {
    await graphql(PROCESS, { id: run.id });
    reload();
  });
  const recalculate = useSubmit(async () => {
    await graphql(RECALCULATE, { id: run.id });
    reload();
  });
  const remove = useSubmit(async () => {
    await graphql(DELETE, { id: run.id });
    navigate('/hr/payroll');
  });
  const processed = run.status === 'processed';
  const done = processed ? `It was processed on ${formatDateTime(run.processedAt)}` : undefined;
  const busy = process.busy || recalculate.busy || remove.busy;
  const person = (id: string) => people.get(id) ?? undefined;
  return (
    <>
      <PageHeader title={runTitle(run)}>
        <ActionButton
          disabledReason={done && `Only a draft run can be processed. ${done}.`}
          busy={busy}
          confirm="Process this payroll run? A processed run cannot be changed, recalculated or deleted."
          onClick={() => void process.submit()}
        >
          Process
        </ActionButton>
        <ActionButton
          class="secondary"
          disabledReason={done && `Only a draft run can be recalculated. ${done}.`}
          hideReason
          busy={busy}
          onClick={() => void recalculate.submit()}
        >
          Recalculate
        </ActionButton>
        <ActionButton
          class="danger"
          disabledReason={done && `Only a draft run can be deleted. ${done}.`}
          hideReason
          busy={busy}
          confirm="Delete this draft payroll run and its payslips?"
          onClick={() => void remove.submit()}
        >
          Delete
        </ActionButton>
      </PageHeader>
      <ErrorMessage error={process.error ?? recalculate.error ?? remove.error} />
      <div class="panel run-facts">
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <StatusBadge value={run.status} />
            {!processed && <span class="detail">A draft: recalculate it after a change, then process it.</span>}
          </dd>
          <dt>Period</dt>
          <dd>
            {formatDate(run.periodStart)} – {formatDate(run.periodEnd)}
          </dd>
          <dt>Pay date</dt>
          <dd>{formatDate(run.payDate)}</dd>
          <dt>Payslips</dt>
          <dd>{run.items.length}</dd>
          {processed && (
            <>
              <dt>Processed</dt>
              <dd>{formatDateTime(run.processedAt)}</dd>
            </>
          )}
        </dl>
      </div>
      {run.items.length ? (
        <Summary run={run} person={person} />
      ) : (
        <p class="empty panel">This run pays nobody: nobody was employed at a salary in the period.</p>
      )}
      {run.skipped.length > 0 && (
        <section aria-labelledby="skipped" class="panel">
          <h2 id="skipped">Not paid in this run</h2>
          <ul class="plain-list">
            {run.skipped.map((skip) => (
              <li key={skip.employeeId}>
                <PersonLink person={person(skip.employeeId)} id={skip.employeeId} />:{' '}
                {SKIP_REASONS[skip.reason] ?? skip.reason}
              </li>
            ))}
          </ul>
        </section>
      )}
      {run.items.length > 0 && (
        <section aria-labelledby="payslips">
          <h2 id="payslips">Payslips</h2>
          <div class="payslip-cards">
            {run.items.map((item) => (
              <PayslipCard key={item.employeeId} run={run} item={item} person={person(item.employeeId)} />
            ))}
          </div>
        </section>
      )}
      {/* Read again once processed: the history then holds the processing. */}
      <RecordHistory objectId={run.id} key={run.status} />
    </>
  );
}

const payslipHref = (run: PayrollRun, employeeId: string) => `/hr/payroll-runs/${run.id}/payslips/${employeeId}`;

/** Each payslip's gross, deductions and net, and the run's totals per currency. */
function Summary({ run, person }: { run: PayrollRun; person: (id: string) => Person | undefined }) {
  const money = (amount: number, currency: string) => formatMoney(amount, currency);
  return (
    <section aria-labelledby="summary">
      <h2 id="summary">Summary</h2>
      <div class="table-wrap run-summary-wrap">
        <table class="stack-narrow desk-table run-summary">
          <caption class="visually-hidden">Each payslip's totals, and the run's</caption>
          <thead>
            <tr>
              <th scope="col">Employee</th>
              <th scope="col" class="number">
                Gross
              </th>
              <th scope="col" class="number">
                Deductions
              </th>
              <th scope="col" class="number">
                Net
              </th>
            </tr>
          </thead>
          <tbody>
            {run.items.map((item) => {
              const who = person(item.employeeId);
              return (
                <tr key={item.employeeId}>
                  <th scope="row" data-label="Employee">
                    <Link href={payslipHref(run, item.employeeId)}>{who ? fullName(who) : item.employeeId}</Link>
                  </th>
                  <td data-label="Gross" class="number">
                    {money(item.grossAmount, item.currency)}
                  </td>
                  <td data-label="Deductions" class="number">
                    {money(item.deductionsAmount, item.currency)}
                  </td>
                  <td data-label="Net" class="number">
                    {money(item.netAmount, item.currency)}
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            {totalsOf(run.items).map((total) => (
              <tr key={total.currency} class="totals">
                <th scope="row" data-label="Totals">
                  Total {total.currency} ({total.count} {total.count === 1 ? 'payslip' : 'payslips'})
                </th>
                <td data-label="Gross" class="number">
                  {money(total.grossAmount, total.currency)}
                </td>
                <td data-label="Deductions" class="number">
                  {money(total.deductionsAmount, total.currency)}
                </td>
                <td data-label="Net" class="number">
                  {money(total.netAmount, total.currency)}
                </td>
              </tr>
            ))}
          </tfoot>
        </table>
      </div>
    </section>
  );
}

function PayslipCard({ run, item, person }: { run: PayrollRun; item: PayrollItem; person: Person | undefined }) {
  const name = person ? fullName(person) : item.employeeId;
  const headingId = `payslip-${item.employeeId}`;
  return (
    <article class="panel payslip-card" aria-labelledby={headingId}>
      <header class="payslip-card-header">
        <h3 id={headingId}>{name}</h3>
        <Link href={payslipHref(run, item.employeeId)} aria-label={`Payslip of ${name}`}>
          Payslip
        </Link>
      </header>
      {person?.jobTitle && <p class="muted">{person.jobTitle}</p>}
      <PayslipLines item={item} caption={`${name}'s payslip lines`} />
      <p class="muted basis">
        {item.basis.daysPaid} of {item.basis.daysInPeriod} days paid
      </p>
    </article>
  );
}
