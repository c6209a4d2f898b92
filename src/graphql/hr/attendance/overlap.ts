// An employee is never at work twice: their attendance records do not overlap.
// A record covers [clockIn, clockOut); an open one counts from its clockIn on.
// A clock-in (or an open record's corrected clockIn) must not fall inside another
// record; a closed interval (at clock-out, or corrected) must not overlap one.
// Callers lock the employee's row first (lockEmployee), so concurrent writes for them queue.
import { DomainError } from '../../../errors.js';
import { isoTimestamp } from '../../kit/fields.js';
import type { RuleContext } from '../../kit/lifecycle.js';

interface Other {
  id: string;
  clockIn: string;
  clockOut: string | null;
}

/** Locks the employee's row until commit: their attendance writes queue behind each other. */
export async function lockEmployee(rules: RuleContext, employeeId: unknown): Promise<{ status: string } | undefined> {
  const [employee] = await rules.query<{ status: string }>(
    `select status from "Employee" where id = $1 and "organizationId" = $2 for update`,
    [employeeId, rules.organizationId],
  );
  return employee;
}

/**
 * Refuses (409 naming `field`) when [from, to) — or the instant `from` without
 * `to` — overlaps another record of the employee's than `record.id`. The
 * employee's row is locked already (lockEmployee).
 */
export async function refuseOverlap(
  rules: RuleContext,
  record: { id?: string; employeeId: unknown; from: string; to?: string | null },
  field: 'clockIn' | 'clockOut',
): Promise<void> {
  const starts = record.to ? `"clockIn" < $5::timestamptz` : `"clockIn" <= $5::timestamptz`;
  const [other] = await rules.query<Other>(
    `select id, ${isoTimestamp('"clockIn"')} as "clockIn", ${isoTimestamp('"clockOut"')} as "clockOut"
     from "Attendance"
     where "organizationId" = $1 and "employeeId" = $2 and id <> $3
       and coalesce("clockOut", 'infinity') > $4::timestamptz and ${starts}
     order by "clockIn" limit 1`,
    [rules.organizationId, record.employeeId, record.id ?? '', record.from, record.to ?? record.from],
  );
  if (!other) return;
  const span = other.clockOut ? `${other.clockIn} to ${other.clockOut}` : `${other.clockIn}, still open`;
  throw new DomainError('CONFLICT', `It overlaps the employee's attendance ${other.id} (${span})`, field);
}
