// An employee's leave balance as GraphQL and REST show it: GraphQL and
// GET /hr/employees/:id/leave-balances only (computed, never stored).
import { Field, ObjectType } from 'type-graphql';
import { oneOf, Public } from '../../kit/fields.js';
import { POLICY_TYPES, type PolicyType } from '../leave-policy/type.js';

@ObjectType({
  simpleResolvers: true,
  description: "An employee's days of one type of leave in one calendar year, under its leave policy.",
})
export class LeaveBalance {
  @Public.of(oneOf(POLICY_TYPES), { description: 'The type of leave (one row per type with a policy in force).' })
  type!: PolicyType;

  @Public.int({ description: 'The calendar year.' })
  year!: number;

  @Public.int({
    description:
      'Days the employee may take in the year so far: accrued (prorated over the days employed; monthly accrual: ' +
      'the months begun by the date asked about) plus carriedOverDays.',
  })
  entitledDays!: number;

  @Public.int({
    description: "Unused days of the year before carried into this one (at most its policy's carryOverDays).",
  })
  carriedOverDays!: number;

  @Public.int({ description: "Working days of the year's approved requests." })
  takenDays!: number;

  @Public.int({ description: "Working days of the year's pending (requested) requests." })
  requestedDays!: number;

  @Public.int({
    description: 'entitledDays − takenDays (pending requests do not lower it); below zero only if the policy allows.',
  })
  remainingDays!: number;
}

@ObjectType({ simpleResolvers: true, description: "An employee's leave balances of one year." })
export class LeaveBalanceList {
  @Field(() => [LeaveBalance], {
    description: 'One per type of leave with a policy in force that year, in the order of the leave types.',
  })
  data!: LeaveBalance[];
}
