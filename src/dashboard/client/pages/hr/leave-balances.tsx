// Leave balances: each person's days per leave policy for a year (entitled,
// carried over, taken, pending, remaining), as the `leaveBalances` query
// computes them: this year as of today (the organization's), another year as
// of its last day. People by last name, searchable, a page at a time.
import { setQuery, useLocation } from '../../route.js';
import type { PageProps } from '../../section.js';
import { ErrorMessage, Field, humanize, Link, Loaded, Pager, PageHeader, Select, useQuery } from '../../ui.js';
import { useLeaveBalances, type LeaveBalance } from './balances.js';
import { todayIn } from './dates.js';
import { useOrganization } from './organization.js';
import { PERSON_FIELDS, PersonLink, type Person } from './people.js';
import './hr.css';

const LIMIT = 20;
const EMPLOYEES = `query BalancePeople($page: Int, $limit: Int, $q: String, $status: EmployeeStatus) {
  employees(page: $page, limit: $limit, q: $q, status: $status, sort: lastName) {
    data { ${PERSON_FIELDS} }
    pagination { page limit total }
  }
}`;

interface People {
  employees: { data: Person[]; pagination: { page: number; limit: number; total: number } };
}

const STATUSES = ['active', 'terminated'];

export function LeaveBalancesPage(_: PageProps) {
  const organization = useOrganization();
  return (
    <>
      <PageHeader title="Leave balances" />
      <Loaded query={organization}>{({ organization }) => <Balances today={todayIn(organization.timeZone)} />}</Loaded>
    </>
  );
}

function Balances({ today }: { today: string }) {
  const { query } = useLocation();
  const thisYear = Number(today.slice(0, 4));
  const asked = Number(query.get('year'));
  const year = Number.isInteger(asked) && asked >= 1900 && asked <= 9999 ? asked : thisYear;
  const asOf = year === thisYear ? today : `${year}-12-31`;
  const status = STATUSES.includes(query.get('status') ?? '') ? query.get('status')! : 'active';
  const people = useQuery<People>(EMPLOYEES, {
    page: Number(query.get('page')) || 1,
    limit: LIMIT,
    q: query.get('q') || undefined,
    status: status === 'all' ? undefined : status,
  });
  return (
    <>
      <div class="toolbar">
        <form
          role="search"
          class="toolbar"
          aria-label="Search people"
          onSubmit={(event) => {
            event.preventDefault();
            const q = new FormData(event.currentTarget).get('q');
            setQuery({ q: typeof q === 'string' ? q.trim() : undefined, page: undefined });
          }}
        >
          <Field label="Search" name="q" type="search" defaultValue={query.get('q') ?? ''} key={query.get('q') ?? ''} />
          <button type="submit" class="secondary">
            Search
          </button>
        </form>
        <Select
          label="Status"
          name="status"
          value={status}
          options={[...STATUSES.map((value) => ({ value, label: humanize(value) })), { value: 'all', label: 'All' }]}
          onChange={(event) => setQuery({ status: event.currentTarget.value, page: undefined })}
        />
        <div class="year-nav actions">
          <button type="button" class="secondary" onClick={() => setQuery({ year: year - 1, page: undefined })}>
            Previous year
          </button>
          <button type="button" class="secondary" onClick={() => setQuery({ year: year + 1, page: undefined })}>
            Next year
          </button>
        </div>
      </div>
      <h2 aria-live="polite">
        {year} {year === thisYear ? '(as of today)' : '(at the end of the year)'}
      </h2>
      <Loaded query={people}>
        {({ employees }) =>
          employees.data.length ? (
            <>
              <BalanceTable people={employees.data} asOf={asOf} />
              <Pager {...employees.pagination} onPage={(next) => setQuery({ page: next })} />
            </>
          ) : (
            <p class="empty panel">Nothing matches.</p>
          )
        }
      </Loaded>
    </>
  );
}

const COLUMNS: [keyof LeaveBalance, string][] = [
  ['entitledDays', 'Entitled'],
  ['carriedOverDays', 'Carried over'],
  ['takenDays', 'Taken'],
  ['requestedDays', 'Pending'],
  ['remainingDays', 'Remaining'],
];

function BalanceTable({ people, asOf }: { people: Person[]; asOf: string }) {
  const balances = useLeaveBalances(people.map((person) => ({ employeeId: person.id, date: asOf })));
  if (balances.error) return <ErrorMessage error={balances.error} />;
  if (!balances.data) return <p class="muted">Loading balances…</p>;
  const of = (person: Person) => balances.of({ employeeId: person.id, date: asOf }) ?? [];
  if (people.every((person) => of(person).length === 0)) {
    return (
      <p class="empty panel">
        No leave policy is in force in {asOf.slice(0, 4)}: balances come from the{' '}
        <Link href="/hr/leave-policies">leave policies</Link> (days a year per type of leave).
      </p>
    );
  }
  return (
    <div class="table-wrap">
      <table class="stack-narrow desk-table leave-balances">
        <caption class="visually-hidden">Leave balances in working days, per person and type of leave</caption>
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Leave type</th>
            {COLUMNS.map(([, label]) => (
              <th key={label} scope="col" class="number">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        {people.map((person) => {
          const rows = of(person);
          const name = (
            <th scope="rowgroup" rowSpan={Math.max(1, rows.length)} class="person-cell">
              <PersonLink person={person} id={person.id} />
            </th>
          );
          return (
            <tbody key={person.id}>
              {rows.length === 0 && (
                <tr>
                  {name}
                  <td colSpan={COLUMNS.length + 1} class="muted">
                    No leave policy in force for this year.
                  </td>
                </tr>
              )}
              {rows.map((balance, i) => (
                <tr key={balance.type}>
                  {i === 0 && name}
                  <td data-label="Leave type">{humanize(balance.type)}</td>
                  {COLUMNS.map(([field, label]) => (
                    <td
                      key={field}
                      data-label={label}
                      class={`number${field === 'remainingDays' && balance.remainingDays < 0 ? ' negative' : ''}`}
                    >
                      {balance[field]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
