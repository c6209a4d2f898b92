// The Expense as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { actorKind, type Actor } from '../../kit/actor.js';
import { oneOf, Public } from '../../kit/fields.js';

export const EXPENSE_STATUSES = ['draft', 'submitted', 'approved', 'rejected', 'reimbursed'] as const;
export const EXPENSE_CATEGORIES = ['travel', 'meals', 'supplies', 'software', 'other'] as const;

@ObjectType({ simpleResolvers: true, description: "An employee's expense claim, reimbursed once approved." })
export class Expense {
  @Public.id()
  id!: string;

  @Public.id({ description: 'An employee of the organization.' })
  employeeId!: string;

  @Public.money({ description: 'Integer minor units of currency, more than 0.' })
  amount!: number;

  @Public.text({ description: 'ISO 4217 code, upper-case.' })
  currency!: string;

  @Public.of(oneOf(EXPENSE_CATEGORIES))
  category!: (typeof EXPENSE_CATEGORIES)[number];

  @Public.date()
  incurredOn!: string;

  @Public.text({ nullable: true })
  description!: string | null;

  @Public.text({ nullable: true, description: 'An https URL of the receipt.' })
  receiptUrl!: string | null;

  @Public.of(oneOf(EXPENSE_STATUSES), {
    description:
      'draft until submit; then approved or rejected; approved until reimburse. Changed by the actions only.',
  })
  status!: (typeof EXPENSE_STATUSES)[number];

  @Public.timestamp({ nullable: true, description: 'Set by submit.' })
  submittedAt!: string | null;

  @Public.timestamp({ nullable: true, description: 'Set by approve or reject.' })
  decidedAt!: string | null;

  @Public.of(actorKind, {
    nullable: true,
    description: 'Who approved or rejected it (as the event `actor` says); null before a decision.',
  })
  decidedBy!: Actor | null;

  @Public.text({ nullable: true, description: "The reject action's reason." })
  rejectionReason!: string | null;

  @Public.timestamp({ nullable: true, description: 'Set by reimburse.' })
  reimbursedAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
