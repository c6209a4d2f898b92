// `PayrollItem.employee` and `PayrollSkip.employee` (a Payslip's too): the
// employee a payslip pays or a run skips, so a run comes with its people's names
// in one request. Loaded for all of a run's payslips and skips at once; needs
// hr:read; null for an employee since deleted.
import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { byKey, loaderFor } from '../../kit/loaders.js';
import { AREAS } from '../../kit/resource.js';
import { Requires } from '../../kit/scope.js';
import { Employee } from '../employee/type.js';
import { PayrollItem, PayrollSkip } from './type.js';

function employeeLoader(ctx: Context) {
  const principal = requirePrincipal(ctx);
  return loaderFor<string, Employee | undefined>(ctx, 'PayrollRun.employee', async (ids) =>
    byKey(ids, await ctx.services.employees.findMany(principal, ids), (row) => row.id),
  );
}

function employeeField(on: ClassType<{ employeeId: string }>, description: string): ClassType {
  @Resolver(() => on)
  class EmployeeFieldResolver {
    @Requires(AREAS.hr.read)
    @FieldResolver(() => Employee, { nullable: true, description })
    async employee(@Root() row: { employeeId: string }, @Ctx() ctx: Context): Promise<Employee | null> {
      return (await employeeLoader(ctx).load(row.employeeId)) ?? null;
    }
  }
  return EmployeeFieldResolver;
}

export const payrollEmployeeResolvers = [
  employeeField(PayrollItem, 'The employee paid (needs hr:read; null for one since deleted).'),
  employeeField(PayrollSkip, 'The employee not paid (needs hr:read; null for one since deleted).'),
];
