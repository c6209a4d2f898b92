// One employee's payslip in a run (the `payslip` query): who pays whom, the
// period and pay date, every line, gross, deductions and net, and the days
// paid. Laid out to print on one page (the dashboard's frame is left out of
// the print); a draft's payslip says it may still change.
import { can, type PageProps } from '../../section.js';
import { formatDate, Link, Loaded, PageHeader, StatusBadge, useQuery } from '../../ui.js';
import { ORGANIZATION, type Organization } from './organization.js';
import { PayslipLines } from './payslip-lines.js';
import { ITEM_FIELDS, type PayrollItem, type PayrollRun } from './payroll-types.js';
import { fullName, PERSON_FIELDS, type Person } from './people.js';
import './hr.css';

type Payslip = PayrollItem & Pick<PayrollRun, 'periodStart' | 'periodEnd' | 'payDate' | 'status'> & { runId: string };

/** The payslip, with its employee's name and job for a viewer who may read people (hr:read). */
const payslipQuery = (withPeople: boolean) => `query Payslip($runId: ID!, $employeeId: ID!) {
  payslip(runId: $runId, employeeId: $employeeId) {
    runId periodStart periodEnd payDate status ${ITEM_FIELDS} ${withPeople ? `employee { ${PERSON_FIELDS} }` : ''}
  }
  ${ORGANIZATION}
}`;

export function PayslipPage({ params, viewer }: PageProps) {
  const result = useQuery<{ payslip: Payslip; organization: Organization }>(payslipQuery(can(viewer, 'hr:read')), {
    runId: params.id,
    employeeId: params.employeeId,
  });
  return (
    <>
      <p class="no-print">
        <Link href={`/hr/payroll-runs/${params.id}`}>← Payroll run</Link>
      </p>
      <Loaded query={result}>
        {({ payslip, organization }) => <Sheet payslip={payslip} organization={organization} />}
      </Loaded>
    </>
  );
}

function Sheet({ payslip, organization }: { payslip: Payslip; organization: Organization }) {
  const employee: Partial<Person> = payslip.employee ?? {};
  const name = payslip.employee ? fullName(payslip.employee) : payslip.employeeId;
  return (
    <>
      <PageHeader title={`Payslip: ${name}`}>
        <button type="button" class="secondary no-print" onClick={() => window.print()}>
          Print
        </button>
      </PageHeader>
      {payslip.status === 'draft' && (
        <p class="warning">A draft: this payslip may still change until its payroll run is processed.</p>
      )}
      <article class="panel payslip-sheet" aria-label={`Payslip of ${name}`}>
        <div class="payslip-parties">
          <div>
            <h2 class="payslip-party">{organization.legalName ?? organization.name}</h2>
            {organization.address && <p class="address">{organization.address}</p>}
          </div>
          <dl class="facts">
            <dt>Employee</dt>
            <dd>{name}</dd>
            {employee.jobTitle && (
              <>
                <dt>Job title</dt>
                <dd>{employee.jobTitle}</dd>
              </>
            )}
            {employee.department && (
              <>
                <dt>Department</dt>
                <dd>{employee.department}</dd>
              </>
            )}
            <dt>Employee id</dt>
            <dd>
              <code>{payslip.employeeId}</code>
            </dd>
          </dl>
        </div>
        <dl class="facts payslip-period">
          <dt>Period</dt>
          <dd>
            {formatDate(payslip.periodStart)} – {formatDate(payslip.periodEnd)}
          </dd>
          <dt>Pay date</dt>
          <dd>{formatDate(payslip.payDate)}</dd>
          <dt>Days paid</dt>
          <dd>
            {payslip.basis.daysPaid} of {payslip.basis.daysInPeriod}
          </dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge value={payslip.status} />
          </dd>
        </dl>
        <PayslipLines item={payslip} caption={`${name}'s payslip lines`} />
      </article>
    </>
  );
}
