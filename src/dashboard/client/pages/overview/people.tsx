// People (hr:read): how many employees are active, and how many leave requests
// wait for a decision, each a link to the list behind it.
import { useQuery } from '../../ui.js';
import { Figure, OverviewCard } from './card.js';

interface People {
  active: { pagination: { total: number } };
  pendingLeave: { pagination: { total: number } };
}

const PEOPLE = `query OverviewPeople {
  active: employees(status: active, limit: 1) { pagination { total } }
  pendingLeave: leaveRequests(status: requested, limit: 1) { pagination { total } }
}`;

export function PeopleCard() {
  const query = useQuery<People>(PEOPLE);
  return (
    <OverviewCard id="people" title="People" query={query}>
      {({ active, pendingLeave }) => (
        <dl class="figures">
          <Figure id="headcount" label="Headcount" value={active.pagination.total} href="/hr/employees?status=active" />
          <Figure
            id="pending-leave"
            label="Leave requests to decide"
            value={pendingLeave.pagination.total}
            href="/hr/leave/inbox"
          />
        </dl>
      )}
    </OverviewCard>
  );
}
