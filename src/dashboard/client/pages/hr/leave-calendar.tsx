// The leave calendar: a month, a row per person with leave in it and a column
// per day; approved leave and pending requests marked differently (a letter
// and a solid or dashed box, with the words for screen readers), the
// organization's days off and holidays marked in the column headings. The
// month's requests and holidays are also listed below, as text.
import { setQuery, useLocation } from '../../route.js';
import type { PageProps } from '../../section.js';
import { ErrorMessage, humanize, Link, Loaded, Loading, PageHeader, StatusBadge } from '../../ui.js';
import {
  addMonths,
  dayName,
  daysOf,
  isoWeekday,
  monthName,
  monthOf,
  parseMonth,
  todayIn,
  weekdayName,
} from './dates.js';
import { leaveDates } from './leave.js';
import { peopleOf, useMonth, type MonthData } from './leave-month.js';
import { useOrganization, type Organization } from './organization.js';
import { PersonLink } from './people.js';
import './hr.css';

export function LeaveCalendarPage(_: PageProps) {
  const organization = useOrganization();
  return (
    <>
      <PageHeader title="Leave calendar" />
      <Loaded query={organization}>{({ organization }) => <Calendar organization={organization} />}</Loaded>
    </>
  );
}

function Calendar({ organization }: { organization: Organization }) {
  const { query } = useLocation();
  const today = todayIn(organization.timeZone);
  const month = parseMonth(query.get('month')) ?? monthOf(today);
  const data = useMonth(month);
  return (
    <section aria-labelledby="calendar-month">
      <div class="calendar-bar">
        <h2 id="calendar-month" aria-live="polite">
          {monthName(month)}
        </h2>
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setQuery({ month: addMonths(month, -1) })}>
            Previous month
          </button>
          <button type="button" class="secondary" onClick={() => setQuery({ month: undefined })}>
            Today
          </button>
          <button type="button" class="secondary" onClick={() => setQuery({ month: addMonths(month, 1) })}>
            Next month
          </button>
        </div>
      </div>
      <Legend />
      {data.error && <ErrorMessage error={data.error} />}
      {!data.data && !data.error && <Loading />}
      {data.data && (
        <div aria-busy={data.loading}>
          <MonthGrid month={month} today={today} organization={organization} data={data.data} />
          <MonthLists month={month} data={data.data} />
        </div>
      )}
    </section>
  );
}

/** What the marks mean, in words (the marks differ in shape and letter, not only colour). */
function Legend() {
  return (
    <ul class="calendar-legend" aria-label="Legend">
      <li>
        <span class="leave-mark leave-approved" aria-hidden="true">
          V
        </span>{' '}
        Approved (letter: the type of leave, V vacation, S sick, P personal, U unpaid, O other)
      </li>
      <li>
        <span class="leave-mark leave-requested" aria-hidden="true">
          V?
        </span>{' '}
        Pending: waiting for a decision
      </li>
      <li>
        <span class="day-off-key" aria-hidden="true" /> Day off (not a working day)
      </li>
      <li>
        <span class="holiday-key" aria-hidden="true">
          H
        </span>{' '}
        Holiday
      </li>
    </ul>
  );
}

const letter = (type: string) => type.charAt(0).toUpperCase();

function MonthGrid({
  month,
  today,
  organization,
  data,
}: {
  month: string;
  today: string;
  organization: Organization;
  data: MonthData;
}) {
  const dates = daysOf(month);
  const holidays = new Map(data.holidays.map((holiday) => [holiday.date, holiday.name]));
  const working = new Set(organization.workingDays);
  const people = peopleOf(data.requests);
  if (!people.length) {
    return <p class="empty panel">No approved or pending leave in {monthName(month)}.</p>;
  }
  return (
    <div class="table-wrap calendar-wrap">
      <table class="leave-calendar">
        <caption class="visually-hidden">Leave in {monthName(month)}: a row per person, a column per day</caption>
        <thead>
          <tr>
            <th scope="col" class="person-col">
              Person
            </th>
            {dates.map((date) => {
              const holiday = holidays.get(date);
              const off = !working.has(isoWeekday(date));
              const classes = ['day', (off || holiday) && 'day-off', holiday && 'holiday', date === today && 'today'];
              return (
                <th
                  key={date}
                  scope="col"
                  class={classes.filter(Boolean).join(' ')}
                  aria-current={date === today ? 'date' : undefined}
                  title={holiday}
                >
                  <span aria-hidden="true">
                    <span class="weekday">{weekdayName(date).slice(0, 2)}</span>
                    <span class="date-number">{Number(date.slice(8))}</span>
                    {holiday && <span class="holiday-mark">H</span>}
                  </span>
                  <span class="visually-hidden">
                    {dayName(date)}
                    {holiday ? `, holiday: ${holiday}` : off ? ', day off' : ''}
                    {date === today ? ', today' : ''}
                  </span>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <tr key={person.employeeId}>
              <th scope="row" class="person-col">
                <PersonLink person={person.employee} id={person.employeeId} />
              </th>
              {dates.map((date) => {
                const on = person.requests.filter((request) => request.from <= date && date <= request.to);
                const off = !working.has(isoWeekday(date)) || holidays.has(date);
                return (
                  <td key={date} class={off ? 'day-off' : undefined}>
                    {on.map((request) => (
                      <span key={request.id} class={`leave-mark leave-${request.status}`}>
                        <span aria-hidden="true">
                          {letter(request.type)}
                          {request.status === 'requested' ? '?' : ''}
                        </span>
                        <span class="visually-hidden">
                          {humanize(request.type)}, {request.status === 'approved' ? 'approved' : 'pending'}
                        </span>
                      </span>
                    ))}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The month's requests and holidays as text: what the grid shows, readable at any width. */
function MonthLists({ month, data }: { month: string; data: MonthData }) {
  const requests = [...data.requests].sort((a, b) => a.from.localeCompare(b.from) || a.id.localeCompare(b.id));
  return (
    <div class="calendar-lists">
      <section aria-labelledby="month-requests">
        <h2 id="month-requests">Leave in {monthName(month)}</h2>
        {requests.length ? (
          <ul class="plain-list month-requests">
            {requests.map((request) => (
              <li key={request.id}>
                <PersonLink person={request.employee} id={request.employeeId} />: {humanize(request.type)},{' '}
                {leaveDates(request)} ({request.days} working {request.days === 1 ? 'day' : 'days'}){' '}
                <StatusBadge value={request.status === 'requested' ? 'pending' : request.status} />
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">None.</p>
        )}
        {requests.some((request) => request.status === 'requested') && (
          <p>
            <Link href="/hr/leave/inbox">Decide pending requests in the leave inbox</Link>
          </p>
        )}
      </section>
      <section aria-labelledby="month-holidays">
        <h2 id="month-holidays">Holidays</h2>
        {data.holidays.length ? (
          <ul class="plain-list">
            {data.holidays.map((holiday) => (
              <li key={holiday.date}>
                {dayName(holiday.date)}: {holiday.name}
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">No holiday in {monthName(month)}.</p>
        )}
      </section>
    </div>
  );
}
