// GET /hr/payroll-runs/:id/payslips/:employeeId (GraphQL `payslip`): one
// employee's payslip in a run, with the run's period and pay date, with the
// payroll scope. 404 for a run the organization does not have, and for an
// employee without a payslip in it.
import { Arg, Ctx, ID, ObjectType, Query, Resolver } from 'type-graphql';
import type { Principal } from '../../../auth/principal.js';
import { DomainError, notFound } from '../../../errors.js';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { oneOf, Public, responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { defineModule, type ServiceDependencies } from '../../kit/module.js';
import { requireWellFormedId } from '../../kit/records.js';
import { AREAS } from '../../kit/resource.js';
import { route } from '../../kit/routes.js';
import { Requires } from '../../kit/scope.js';
import { namedStatement } from '../../kit/statements.js';
import { payrollEmployeeResolvers } from './payslip-employee.js';
import { itemJson, PAYROLL_RUN_STATUSES, PayrollItem } from './type.js';

@ObjectType({ simpleResolvers: true, description: "One employee's payslip in a payroll run, with the run's dates." })
export class Payslip extends PayrollItem {
  @Public.id()
  runId!: string;

  @Public.date()
  periodStart!: string;

  @Public.date()
  periodEnd!: string;

  @Public.date()
  payDate!: string;

  @Public.of(oneOf(PAYROLL_RUN_STATUSES), { description: "The run's: a draft's payslip may still change." })
  status!: (typeof PAYROLL_RUN_STATUSES)[number];
}

export class PayslipService {
  constructor(private readonly db: ServiceDependencies) {}

  async get(principal: Principal, runId: string, employeeId: string): Promise<Payslip> {
    requireWellFormedId('pay', 'PayrollRun', runId);
    const text = `select r.id as "runId", to_char(r."periodStart", 'YYYY-MM-DD') as "periodStart",
        to_char(r."periodEnd", 'YYYY-MM-DD') as "periodEnd", to_char(r."payDate", 'YYYY-MM-DD') as "payDate", r.status,
        (select ${itemJson} from "PayrollItem" i where i."runId" = r.id and i."employeeId" = $3) as item
      from "PayrollRun" r where r.id = $1 and r."organizationId" = $2`;
    const { rows } = await this.db.pool.query<Record<string, unknown> & { item: object | null }>(
      namedStatement(text, [runId, principal.organizationId, employeeId]),
    );
    const [row] = rows;
    if (!row) throw notFound('PayrollRun');
    if (!row.item) throw new DomainError('NOT_FOUND', 'The employee has no payslip in this payroll run');
    const { item, ...run } = row;
    // Both parts are in their public shape already (formatted by PostgreSQL).
    return { ...item, ...run } as unknown as Payslip;
  }
}

@Resolver(() => Payslip)
export class PayslipResolver {
  @Requires(AREAS.payroll.read)
  @Query(() => Payslip, {
    nullable: true,
    description:
      "An employee's payslip in a payroll run; null, with a NOT_FOUND error, when the organization has no such " +
      'run or the employee has no payslip in it.',
  })
  payslip(
    @Arg('runId', () => ID) runId: string,
    @Arg('employeeId', () => ID) employeeId: string,
    @Ctx() ctx: Context,
  ): Promise<Payslip> {
    return ctx.services.payslips.get(requirePrincipal(ctx), runId, employeeId);
  }
}

export const payslipModule = defineModule({
  resolvers: [PayslipResolver, ...payrollEmployeeResolvers],
  routes: [
    route({
      method: 'get',
      path: '/hr/payroll-runs/:id/payslips/:employeeId',
      tag: AREAS.payroll.tag,
      summary: "Get an employee's payslip",
      operationId: 'getPayslip',
      description:
        "The employee's item of the run (lines, gross, deductions, net and their basis) with the run's period, pay " +
        'date and status. 404 when the employee has no payslip in the run (see its `skipped`).',
      operation: `query ($id: ID!, $employeeId: ID!) { payslip(runId: $id, employeeId: $employeeId) { ${selectionOf(Payslip)} } }`,
      variables: ({ params }) => ({ id: params.id, employeeId: params.employeeId }),
      status: 200,
      response: responseSchemaOf(Payslip),
    }),
  ],
  services: { payslips: (deps: ServiceDependencies) => new PayslipService(deps) },
});
