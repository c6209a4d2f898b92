// People (hr:read): how many employees are active, and how many leave requests
// wait for a decision, each a link to where they are seen or decided.
import { useQuery } from '../../ui.js';
import { countOf, Figure, OverviewCard, type Counted } from './card.js';

interface People {
  everyone: Counted;
  active: Counted;
  terminated: Counted;
  pendingLeave: Counted;
}

// A filtered count is exact up to 1,000 and the whole list's always is, so past
// 1,000 active employees the headcount is everyone less those terminated.
const PEOPLE = `query OverviewPeople {
  everyone: employees(limit: 1) { pagination { total totalExact } }
  active: employees(status: active, limit: 1) { pagination { total totalExact } }
  terminated: employees(status: terminated, limit: 1) { pagination { total totalExact } }
  pendingLeave: leaveRequests(status: requested, limit: 1) { pagination { total totalExact } }
}`;

/** Active employees, exactly when the API's counts allow it. */
export function headcountOf({ everyone, active, terminated }: People): Counted['pagination'] {
  if (active.pagination.totalExact) return active.pagination;
  if (everyone.pagination.totalExact && terminated.pagination.totalExact) {
    return { total: everyone.pagination.total - terminated.pagination.total, totalExact: true };
  }
  return active.pagination;
}

export function PeopleCard() {
  const query = useQuery<People>(PEOPLE);
  return (
    <OverviewCard id="people" title="People" query={query}>
      {(people) => (
        <dl class="figures">
          <Figure
            id="headcount"
            label="Headcount"
            value={countOf({ pagination: headcountOf(people) })}
            href="/hr/employees?status=active"
          />
          <Figure
            id="pending-leave"
            label="Leave requests to decide"
            value={countOf(people.pendingLeave)}
            href="/hr/leave/inbox"
          />
        </dl>
      )}
    </OverviewCard>
  );
}
