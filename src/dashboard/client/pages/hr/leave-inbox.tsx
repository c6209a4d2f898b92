// The leave inbox: pending requests, the one waiting longest first, each with
// its working days and the person's balance of that type (the balance its
// approval is held to: the year of its last day, as of that day). Approve or
// Reject (with an optional reason, kept as rejectionReason) decides it there;
// a decided row leaves the inbox and the page says what was done.
import { useEffect, useRef, useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { setQuery, useLocation } from '../../route.js';
import { can, type PageProps } from '../../section.js';
import {
  ErrorMessage,
  Field,
  formatDateTime,
  humanize,
  Loaded,
  Pager,
  PageHeader,
  StatusBadge,
  useQuery,
  useSubmit,
} from '../../ui.js';
import { ActionButton } from '../../action-button.js';
import { days, useLeaveBalances, type LeaveBalance } from './balances.js';
import { leaveDates } from './leave.js';
import { fullName, PERSON_FIELDS, PersonLink, type Person } from './people.js';
import './hr.css';

const LIMIT = 20;

const INBOX = `query LeaveInbox($page: Int, $limit: Int) {
  leaveRequests(status: requested, sort: createdAt, page: $page, limit: $limit) {
    data { id employeeId type from to days reason createdAt employee { ${PERSON_FIELDS} } }
    pagination { page limit total }
  }
}`;
const APPROVE = `mutation ApproveLeave($id: ID!) { approveLeaveRequest(id: $id) { id status } }`;
const REJECT = `mutation RejectLeave($id: ID!, $input: RejectLeaveRequestInput) {
  rejectLeaveRequest(id: $id, input: $input) { id status }
}`;

export interface PendingRequest {
  id: string;
  employeeId: string;
  type: string;
  from: string;
  to: string;
  days: number;
  reason: string | null;
  createdAt: string;
  employee: Person | null;
}

interface Inbox {
  leaveRequests: { data: PendingRequest[]; pagination: { page: number; limit: number; total: number } };
}

export function LeaveInboxPage({ viewer }: PageProps) {
  const { query } = useLocation();
  const page = Number(query.get('page')) || 1;
  const inbox = useQuery<Inbox>(INBOX, { page, limit: LIMIT });
  // Decided here: gone from the inbox at once, before the list is read again.
  const [decided, setDecided] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string>();
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const mayDecide = can(viewer, 'hr:write');
  const onDecided = (request: PendingRequest, what: string) => {
    setDecided((ids) => new Set(ids).add(request.id));
    setNotice(`${what} ${whose(request)} ${request.type} leave, ${leaveDates(request)}.`);
    inbox.reload();
    // The row the focus was on is gone: the message saying why takes it.
    setTimeout(() => noticeRef.current?.focus(), 0);
  };
  return (
    <>
      <PageHeader title="Leave inbox" />
      <p class="muted">Pending leave requests, the one waiting longest first.</p>
      {!mayDecide && <p class="notice">You can see the requests; deciding them needs the hr:write scope.</p>}
      <p class="notice" role="status" tabIndex={-1} ref={noticeRef} hidden={!notice}>
        {notice}
      </p>
      <Loaded query={inbox}>
        {({ leaveRequests }) => {
          const rows = leaveRequests.data.filter((request) => !decided.has(request.id));
          if (!rows.length) {
            return <p class="empty panel">No leave requests are waiting for a decision.</p>;
          }
          return (
            <>
              <InboxTable rows={rows} decided={decided.size} mayDecide={mayDecide} onDecided={onDecided} />
              <Pager {...leaveRequests.pagination} onPage={(next) => setQuery({ page: next })} />
            </>
          );
        }}
      </Loaded>
    </>
  );
}

const whose = (request: PendingRequest) => (request.employee ? `${fullName(request.employee)}'s` : 'the');

function InboxTable({
  rows,
  decided,
  mayDecide,
  onDecided,
}: {
  rows: PendingRequest[];
  /** How many were decided here: each decision may move the balances of the rows left. */
  decided: number;
  mayDecide: boolean;
  onDecided: (request: PendingRequest, what: string) => void;
}) {
  const balances = useLeaveBalances(
    rows.map((row) => ({ employeeId: row.employeeId, date: row.to })),
    decided,
  );
  return (
    <div class="table-wrap">
      <table class="stack-narrow desk-table leave-inbox">
        <caption class="visually-hidden">Pending leave requests, the one waiting longest first</caption>
        <thead>
          <tr>
            <th scope="col">Employee</th>
            <th scope="col">Type</th>
            <th scope="col">Dates</th>
            <th scope="col" class="number">
              Days
            </th>
            <th scope="col">Balance</th>
            <th scope="col">Requested</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((request) => (
            <tr key={request.id}>
              <td data-label="Employee">
                <PersonLink person={request.employee} id={request.employeeId} />
              </td>
              <td data-label="Type">
                {humanize(request.type)}
                {request.reason && <span class="detail">“{request.reason}”</span>}
              </td>
              <td data-label="Dates">{leaveDates(request)}</td>
              <td data-label="Days" class="number">
                {request.days}
              </td>
              <td data-label="Balance">
                <BalanceNote
                  request={request}
                  loading={balances.loading}
                  balances={balances.of({ employeeId: request.employeeId, date: request.to })}
                />
              </td>
              <td data-label="Requested">{formatDateTime(request.createdAt)}</td>
              <td data-label="Decision">
                <Decision request={request} mayDecide={mayDecide} onDecided={onDecided} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorMessage error={balances.error} />
    </div>
  );
}

/** The person's balance of the request's type: what is left, and whether the request takes more. */
export function BalanceNote({
  request,
  balances,
  loading,
}: {
  request: Pick<PendingRequest, 'type' | 'days'>;
  balances: LeaveBalance[] | undefined;
  loading: boolean;
}) {
  if (request.type === 'unpaid') return <span class="muted">Unpaid: no balance</span>;
  if (!balances) return <span class="muted">{loading ? 'Loading…' : '—'}</span>;
  const balance = balances.find((b) => b.type === request.type);
  if (!balance) return <span class="muted">No {request.type} policy: not limited</span>;
  return (
    <span class="balance-note">
      {days(balance.remainingDays)} left of {balance.entitledDays} ({balance.year})
      {balance.requestedDays > 0 && (
        <span class="detail">{days(balance.requestedDays)} pending, this one included</span>
      )}
      {request.days > balance.remainingDays && (
        <span class="detail">
          <StatusBadge value="overdue" label="More than is left" />
        </span>
      )}
    </span>
  );
}

function Decision({
  request,
  mayDecide,
  onDecided,
}: {
  request: PendingRequest;
  mayDecide: boolean;
  onDecided: (request: PendingRequest, what: string) => void;
}) {
  const [rejecting, setRejecting] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // Opening the reject form puts the focus in its reason; closing it, back on Reject.
  const opened = useRef(false);
  useEffect(() => {
    if (rejecting) box.current?.querySelector<HTMLInputElement>('input[name="reason"]')?.focus();
    else if (opened.current) box.current?.querySelector<HTMLButtonElement>('button.danger')?.focus();
    opened.current = rejecting;
  }, [rejecting]);
  const approve = useSubmit(async () => {
    await graphql(APPROVE, { id: request.id });
    onDecided(request, 'Approved');
  });
  const reject = useSubmit(async (form: HTMLFormElement) => {
    const reason = String(new FormData(form).get('reason') ?? '').trim();
    await graphql(REJECT, { id: request.id, input: reason ? { reason } : {} });
    onDecided(request, 'Rejected');
  });
  const reason = mayDecide ? undefined : 'Deciding leave needs the hr:write scope.';
  const busy = approve.busy || reject.busy;
  const who = request.employee ? fullName(request.employee) : request.employeeId;
  if (rejecting) {
    return (
      <div ref={box}>
        <form
          class="reject-form"
          aria-label={`Reject ${who}'s request`}
          onSubmit={(event) => {
            event.preventDefault();
            void reject.submit(event.currentTarget);
          }}
        >
          <Field
            label="Reason (optional)"
            name="reason"
            maxLength={1000}
            hint={`Kept with the request and visible to ${who}.`}
            error={reject.fieldError('reason')}
          />
          <ErrorMessage error={reject.formError(['reason'])} />
          <div class="actions">
            <button type="submit" class="danger" disabled={busy}>
              Reject request
            </button>
            <button type="button" class="secondary" onClick={() => setRejecting(false)}>
              Keep pending
            </button>
          </div>
        </form>
      </div>
    );
  }
  return (
    <div class="decision" ref={box}>
      <div class="actions">
        <ActionButton disabledReason={reason} hideReason busy={busy} onClick={() => void approve.submit()}>
          Approve
        </ActionButton>
        <ActionButton class="danger" disabledReason={reason} hideReason busy={busy} onClick={() => setRejecting(true)}>
          Reject
        </ActionButton>
      </div>
      <ErrorMessage error={approve.error} />
    </div>
  );
}
