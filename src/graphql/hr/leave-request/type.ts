// The leave request as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { actorKind, type Actor } from '../../kit/actor.js';
import { objectList, oneOf, Public } from '../../kit/fields.js';

export const LEAVE_TYPES = ['vacation', 'sick', 'personal', 'unpaid', 'other'] as const;
export const LEAVE_STATUSES = ['requested', 'approved', 'rejected', 'cancelled'] as const;

@ObjectType({
  simpleResolvers: true,
  description: 'A day of approved leave on which the employee also clocked in (an attendance record).',
})
export class LeaveConflict {
  @Public.date({ description: "The day, in the organization's time zone, the attendance record's clockIn falls on." })
  date!: string;

  @Public.id({ description: 'The attendance record.' })
  attendanceId!: string;
}

/**
 * The attendance records of an approved request's employee whose clockIn, in
 * the organization's time zone, falls on a day from `from` to `to`: read with
 * the request (never stored), so a clock-in recorded after the approval shows.
 */
const conflicts = (table: string) => `(select coalesce(jsonb_agg(jsonb_build_object(
    'date', to_char((a."clockIn" at time zone o."timeZone")::date, 'YYYY-MM-DD'), 'attendanceId', a.id)
    order by a."clockIn", a.id), '[]'::jsonb)
  from "Organization" o join "Attendance" a on a."organizationId" = o.id
  where "${table}".status = 'approved' and o.id = "${table}"."organizationId"
    and a."employeeId" = "${table}"."employeeId"
    and a."clockIn" >= ("${table}"."from"::timestamp at time zone o."timeZone")
    and a."clockIn" < (("${table}"."to" + 1)::timestamp at time zone o."timeZone"))`;

@ObjectType({ simpleResolvers: true, description: 'An employee asking for days off, from `from` to `to` inclusive.' })
export class LeaveRequest {
  @Public.id()
  id!: string;

  @Public.id({ description: 'An employee of the organization.' })
  employeeId!: string;

  @Public.of(oneOf(LEAVE_TYPES))
  type!: (typeof LEAVE_TYPES)[number];

  @Public.date({ description: 'The first day off.' })
  from!: string;

  @Public.date({ description: 'The last day off; not before from.' })
  to!: string;

  @Public.int({
    description:
      "The working days it takes: the organization's working week less its holidays, from `from` to `to`. " +
      'Counted when it is requested, when its dates change and again when it is approved.',
  })
  days!: number;

  @Public.text({ nullable: true })
  reason!: string | null;

  @Public.of(oneOf(LEAVE_STATUSES), { description: 'Changed by the approve, reject and cancel actions only.' })
  status!: (typeof LEAVE_STATUSES)[number];

  @Public.text({ nullable: true, description: "The reject action's reason." })
  rejectionReason!: string | null;

  @Public.timestamp({ nullable: true, description: 'When it was approved or rejected.' })
  decidedAt!: string | null;

  @Public.of(actorKind, {
    nullable: true,
    description: 'Who approved or rejected it (as the event `actor` says); null before a decision.',
  })
  decidedBy!: Actor | null;

  @Public.of(objectList(LeaveConflict, conflicts), {
    description:
      'Approved leave only: each attendance record of the employee whose clockIn falls on a day from `from` to `to` ' +
      "(in the organization's time zone), oldest first; empty otherwise.",
  })
  conflicts!: LeaveConflict[];

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
