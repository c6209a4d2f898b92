// The leave request as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { actorKind, type Actor } from '../../kit/actor.js';
import { oneOf, Public } from '../../kit/fields.js';

export const LEAVE_TYPES = ['vacation', 'sick', 'personal', 'unpaid', 'other'] as const;
export const LEAVE_STATUSES = ['requested', 'approved', 'rejected', 'cancelled'] as const;

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

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
