// The leave policy as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { oneOf, Public } from '../../kit/fields.js';
import { LEAVE_TYPES } from '../leave-request/type.js';

/** Every leave type but unpaid, which has no balance. */
export const POLICY_TYPES = LEAVE_TYPES.filter((type) => type !== 'unpaid') as unknown as readonly [
  Exclude<(typeof LEAVE_TYPES)[number], 'unpaid'>,
  ...Exclude<(typeof LEAVE_TYPES)[number], 'unpaid'>[],
];
export type PolicyType = (typeof POLICY_TYPES)[number];

export const ACCRUALS = ['yearly', 'monthly'] as const;
export type Accrual = (typeof ACCRUALS)[number];

@ObjectType({
  simpleResolvers: true,
  description:
    'How many days of a type of leave an employee may take in a calendar year: the balance approvals are held to.',
})
export class LeavePolicy {
  @Public.id()
  id!: string;

  @Public.of(oneOf(POLICY_TYPES), { description: 'The type of leave it limits (unpaid leave has no balance).' })
  type!: PolicyType;

  @Public.int({
    nullable: true,
    description:
      'The first calendar year it applies to, until a policy of the same type with a later fromYear; ' +
      'null: every year before that. One policy per type and fromYear.',
  })
  fromYear!: number | null;

  @Public.int({ description: 'Whole days a year for an employee employed the whole year.' })
  daysPerYear!: number;

  @Public.of(oneOf(ACCRUALS), {
    description: 'yearly: the whole year at once; monthly: a twelfth at the start of each month.',
  })
  accrual!: Accrual;

  @Public.int({ description: 'Unused days of a year that carry into the next, at most (0: none carry).' })
  carryOverDays!: number;

  @Public.boolean({ description: 'Whether an approval may take the balance below zero.' })
  allowNegative!: boolean;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
