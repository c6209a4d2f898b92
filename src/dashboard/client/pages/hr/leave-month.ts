// A month of leave for the calendar: every approved and pending request
// overlapping it (however many pages that takes) and its holidays, loaded
// together, and the people with leave in it, by name.
import { useEffect, useState } from 'preact/hooks';
import { graphql, type ApiError } from '../../api.js';
import { asApiError } from '../../ui.js';
import { firstDay, lastDay } from './dates.js';
import { fullName } from './people.js';

export interface CalendarRequest {
  id: string;
  employeeId: string;
  type: string;
  from: string;
  to: string;
  days: number;
  status: 'approved' | 'requested';
  employee: { firstName: string; lastName: string } | null;
}

export interface Holiday {
  date: string;
  name: string;
}

const PAGE = 100;
const REQUESTS = `query CalendarLeave($status: LeaveRequestStatus!, $from: Date!, $to: Date!, $page: Int!, $limit: Int!) {
  leaveRequests(status: $status, from: $from, to: $to, sort: from, page: $page, limit: $limit) {
    data { id employeeId type from to days status employee { firstName lastName } }
    pagination { total }
  }
}`;
const HOLIDAYS = `query CalendarHolidays($from: Date!, $to: Date!) {
  holidays(from: $from, to: $to, sort: date, limit: 100) { data { date name } }
}`;

/** Every request of a status overlapping the month, however many pages that takes. */
async function requestsOf(status: string, month: string): Promise<CalendarRequest[]> {
  type Answer = { leaveRequests: { data: CalendarRequest[]; pagination: { total: number } } };
  const variables = { status, from: firstDay(month), to: lastDay(month), limit: PAGE };
  const first = await graphql<Answer>(REQUESTS, { ...variables, page: 1 });
  const pages = Math.ceil(first.leaveRequests.pagination.total / PAGE);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) => graphql<Answer>(REQUESTS, { ...variables, page: i + 2 })),
  );
  return [first, ...rest].flatMap((answer) => answer.leaveRequests.data);
}

export interface MonthData {
  requests: CalendarRequest[];
  holidays: Holiday[];
}

export function useMonth(month: string) {
  const [state, setState] = useState<{ data?: MonthData; error?: ApiError; loading: boolean }>({ loading: true });
  useEffect(() => {
    let current = true;
    setState((previous) => ({ data: previous.data, loading: true }));
    Promise.all([
      requestsOf('approved', month),
      requestsOf('requested', month),
      graphql<{ holidays: { data: Holiday[] } }>(HOLIDAYS, { from: firstDay(month), to: lastDay(month) }),
    ]).then(
      ([approved, pending, { holidays }]) =>
        current && setState({ data: { requests: [...approved, ...pending], holidays: holidays.data }, loading: false }),
      (error: unknown) => current && setState({ error: asApiError(error), loading: false }),
    );
    return () => void (current = false);
  }, [month]);
  return state;
}

export interface PersonRow {
  employeeId: string;
  employee: CalendarRequest['employee'];
  requests: CalendarRequest[];
}

/** The people with leave in the month, by name, each with their requests. */
export function peopleOf(requests: CalendarRequest[]): PersonRow[] {
  const rows = new Map<string, PersonRow>();
  for (const request of requests) {
    const row = rows.get(request.employeeId) ?? {
      employeeId: request.employeeId,
      employee: request.employee,
      requests: [],
    };
    row.requests.push(request);
    rows.set(request.employeeId, row);
  }
  const name = (row: PersonRow) => (row.employee ? fullName(row.employee) : row.employeeId);
  return [...rows.values()].sort((a, b) => name(a).localeCompare(name(b)));
}
