// `leaveBalances(employeeId, date)`: an employee's leave balances, with hr:read.
import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { CalendarDate } from '../../kit/date-time.js';
import { Requires } from '../../kit/scope.js';
import { LeaveBalanceList } from './type.js';

@Resolver(() => LeaveBalanceList)
export class LeaveBalanceResolver {
  @Requires('hr:read')
  @Query(() => LeaveBalanceList, {
    description:
      "An employee's leave balances for the year of `date` (default today in the organization's time zone), " +
      'accrued as of that date: one per type of leave with a policy in force.',
  })
  leaveBalances(
    @Arg('employeeId', () => ID) employeeId: string,
    @Arg('date', () => CalendarDate, { nullable: true }) date: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<LeaveBalanceList> {
    return ctx.services.leaveBalances.balances(requirePrincipal(ctx), employeeId, date);
  }
}
