// The time clock: clock an employee in now (chosen with the searchable
// picker), who is clocked in at the moment (the open attendance records,
// longest first) each with `Clock out`, and who clocked out today.
import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { EMPLOYEES, RecordPicker } from '../../picker.js';
import { can, type PageProps } from '../../section.js';
import { ErrorMessage, formatDateTime, Loaded, PageHeader, useQuery, useSubmit } from '../../ui.js';
import { ActionButton } from '../../action-button.js';
import { todayIn } from './dates.js';
import { useOrganization } from './organization.js';
import { fullName, PersonLink } from './people.js';
import './hr.css';

interface AttendanceRecord {
  id: string;
  employeeId: string;
  clockIn: string;
  clockOut: string | null;
  minutesWorked: number | null;
  employee: { firstName: string; lastName: string } | null;
}

const RECORD = 'id employeeId clockIn clockOut minutesWorked employee { firstName lastName }';
const ATTENDANCE = `query TimeClock($today: Date!) {
  open: attendance(status: open, sort: clockIn, limit: 100) { data { ${RECORD} } pagination { total } }
  closed: attendance(status: closed, from: $today, sort: clockOut_desc, limit: 20) { data { ${RECORD} } pagination { total } }
}`;
const CLOCK_IN = `mutation ClockIn($input: CreateAttendanceInput!) { createAttendance(input: $input) { ${RECORD} } }`;
const CLOCK_OUT = `mutation ClockOut($id: ID!) { clockOutAttendance(id: $id) { ${RECORD} } }`;

type Lists = { [list in 'open' | 'closed']: { data: AttendanceRecord[]; pagination: { total: number } } };

/** Whole minutes as "7 h 05 min". */
export function duration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours ? `${hours} h ${String(rest).padStart(2, '0')} min` : `${rest} min`;
}

const nameOf = (record: AttendanceRecord) => (record.employee ? fullName(record.employee) : record.employeeId);

export function TimeClockPage({ viewer }: PageProps) {
  const organization = useOrganization();
  return (
    <>
      <PageHeader title="Time clock" />
      <Loaded query={organization}>
        {({ organization }) => <TimeClock today={todayIn(organization.timeZone)} mayClock={can(viewer, 'hr:write')} />}
      </Loaded>
    </>
  );
}

function TimeClock({ today, mayClock }: { today: string; mayClock: boolean }) {
  const lists = useQuery<Lists>(ATTENDANCE, { today });
  const [notice, setNotice] = useState<string>();
  // A new picker after each clock-in: it starts empty again.
  const [pickerKey, setPickerKey] = useState(0);
  const clockIn = useSubmit(async (form: HTMLFormElement) => {
    const employeeId = String(new FormData(form).get('employeeId') ?? '');
    const { createAttendance } = await graphql<{ createAttendance: AttendanceRecord }>(CLOCK_IN, {
      input: { employeeId: employeeId || null },
    });
    setNotice(`${nameOf(createAttendance)} clocked in at ${formatDateTime(createAttendance.clockIn)}.`);
    setPickerKey((n) => n + 1);
    lists.reload();
  });
  const reason = mayClock ? undefined : 'Clocking in and out needs the hr:write scope.';
  return (
    <>
      <p class="notice" role="status" hidden={!notice}>
        {notice}
      </p>
      <form
        class="panel clock-in inline-form"
        aria-labelledby="clock-in-title"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!reason) void clockIn.submit(event.currentTarget);
        }}
      >
        <h2 id="clock-in-title" class="visually-hidden">
          Clock in
        </h2>
        <RecordPicker
          key={pickerKey}
          label="Employee"
          name="employeeId"
          source={EMPLOYEES}
          required
          hint="Clocks them in now."
          error={clockIn.fieldError('employeeId') ?? clockIn.fieldError('clockIn')}
        />
        <button
          type="submit"
          aria-disabled={reason || clockIn.busy ? 'true' : undefined}
          aria-describedby={reason ? 'clock-in-reason' : undefined}
        >
          Clock in
        </button>
        {reason && (
          <span id="clock-in-reason" class="action-reason">
            {reason}
          </span>
        )}
      </form>
      <ErrorMessage error={clockIn.formError(['employeeId', 'clockIn'])} />
      <Loaded query={lists}>
        {({ open, closed }) => (
          <>
            <OpenRecords
              records={open.data}
              total={open.pagination.total}
              disabledReason={reason}
              onDone={setNotice}
              reload={lists.reload}
            />
            <ClosedToday records={closed.data} total={closed.pagination.total} />
          </>
        )}
      </Loaded>
    </>
  );
}

/** Time since the clock-in, again each minute. */
function Since({ clockIn }: { clockIn: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return <>{duration(Math.max(0, Math.floor((now - Date.parse(clockIn)) / 60_000)))}</>;
}

function OpenRecords({
  records,
  total,
  disabledReason,
  onDone,
  reload,
}: {
  records: AttendanceRecord[];
  total: number;
  disabledReason?: string;
  onDone: (notice: string) => void;
  reload: () => void;
}) {
  return (
    <section aria-labelledby="clocked-in">
      <h2 id="clocked-in">Clocked in now ({total})</h2>
      {records.length === 0 ? (
        <p class="empty panel">Nobody is clocked in.</p>
      ) : (
        <div class="table-wrap">
          <table class="stack-narrow desk-table">
            <caption class="visually-hidden">Clocked in now, the longest first</caption>
            <thead>
              <tr>
                <th scope="col">Employee</th>
                <th scope="col">Clocked in</th>
                <th scope="col">For</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <OpenRow
                  key={record.id}
                  record={record}
                  disabledReason={disabledReason}
                  onDone={onDone}
                  reload={reload}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > records.length && <p class="muted">The {records.length} clocked in longest are shown.</p>}
    </section>
  );
}

function OpenRow({
  record,
  disabledReason,
  onDone,
  reload,
}: {
  record: AttendanceRecord;
  disabledReason?: string;
  onDone: (notice: string) => void;
  reload: () => void;
}) {
  const clockOut = useSubmit(async () => {
    const { clockOutAttendance } = await graphql<{ clockOutAttendance: AttendanceRecord }>(CLOCK_OUT, {
      id: record.id,
    });
    onDone(`${nameOf(clockOutAttendance)} clocked out: ${duration(clockOutAttendance.minutesWorked ?? 0)} worked.`);
    reload();
  });
  return (
    <tr>
      <th scope="row" data-label="Employee">
        <PersonLink person={record.employee} id={record.employeeId} />
      </th>
      <td data-label="Clocked in">{formatDateTime(record.clockIn)}</td>
      <td data-label="For">
        <Since clockIn={record.clockIn} />
      </td>
      <td data-label="Action">
        <ActionButton
          class="secondary"
          disabledReason={disabledReason}
          hideReason
          busy={clockOut.busy}
          onClick={() => void clockOut.submit()}
        >
          Clock out
        </ActionButton>
        <ErrorMessage error={clockOut.error} />
      </td>
    </tr>
  );
}

function ClosedToday({ records, total }: { records: AttendanceRecord[]; total: number }) {
  return (
    <section aria-labelledby="clocked-out">
      <h2 id="clocked-out">Clocked out today ({total})</h2>
      {records.length === 0 ? (
        <p class="muted">Nobody has clocked out today yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="stack-narrow desk-table">
            <caption class="visually-hidden">Records clocked in today and closed, the latest clock-out first</caption>
            <thead>
              <tr>
                <th scope="col">Employee</th>
                <th scope="col">Clocked in</th>
                <th scope="col">Clocked out</th>
                <th scope="col" class="number">
                  Worked
                </th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <tr key={record.id}>
                  <th scope="row" data-label="Employee">
                    <PersonLink person={record.employee} id={record.employeeId} />
                  </th>
                  <td data-label="Clocked in">{formatDateTime(record.clockIn)}</td>
                  <td data-label="Clocked out">{formatDateTime(record.clockOut)}</td>
                  <td data-label="Worked" class="number">
                    {duration(record.minutesWorked ?? 0)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
