// GET /hr/employees/:id/compensation (GraphQL `employeeCompensation`): an
// employee's compensation records in the order they take effect, with the
// payroll scope. 404 for an employee the organization does not have.
import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import type { Principal } from '../../../auth/principal.js';
import { notFound } from '../../../errors.js';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { sqlSelectOf } from '../../kit/field-sql.js';
import { defineModule, type ServiceDependencies } from '../../kit/module.js';
import { requireWellFormedId } from '../../kit/records.js';
import { AREAS } from '../../kit/resource.js';
import { route } from '../../kit/routes.js';
import { Requires } from '../../kit/scope.js';
import { namedStatement } from '../../kit/statements.js';
import { Compensation, CompensationHistory } from './type.js';
import { employees } from '../employee/index.js';

export class CompensationHistoryService {
  constructor(private readonly db: ServiceDependencies) {}

  async of(principal: Principal, employeeId: string): Promise<CompensationHistory> {
    requireWellFormedId(employees.resource.idPrefix, 'Employee', employeeId);
    const text = `select e.id, coalesce((select jsonb_agg(to_jsonb(c) order by c."effectiveFrom" asc nulls first)
        from (select ${sqlSelectOf(Compensation, 'Compensation')} from "Compensation"
              where "Compensation"."employeeId" = e.id) c), '[]'::jsonb) as data
      from "Employee" e where e.id = $1 and e."organizationId" = $2`;
    const { rows } = await this.db.pool.query<{ data: Compensation[] }>(
      namedStatement(text, [employeeId, principal.organizationId]),
    );
    if (!rows[0]) throw notFound('Employee');
    return { data: rows[0].data };
  }
}

@Resolver(() => CompensationHistory)
export class CompensationHistoryResolver {
  @Requires(AREAS.payroll.read)
  @Query(() => CompensationHistory, {
    nullable: true,
    description:
      "The employee's compensation records, oldest effectiveFrom first; null, with a NOT_FOUND error, " +
      'when the organization has no such employee.',
  })
  employeeCompensation(
    @Arg('employeeId', () => ID) employeeId: string,
    @Ctx() ctx: Context,
  ): Promise<CompensationHistory> {
    return ctx.services.compensationHistory.of(requirePrincipal(ctx), employeeId);
  }
}

const history = z.object({ data: z.array(responseSchemaOf(Compensation)) }).meta({ id: 'CompensationHistory' });

export const compensationHistoryModule = defineModule({
  resolvers: [CompensationHistoryResolver],
  routes: [
    route({
      method: 'get',
      path: '/hr/employees/:id/compensation',
      tag: AREAS.payroll.tag,
      summary: "List an employee's compensation history",
      operationId: 'listEmployeeCompensation',
      description:
        'Every compensation record of the employee (`{"data": [...]}`), in the order they take effect: ' +
        'effectiveFrom, a record without one (in effect from the beginning) first. Each is in effect until the ' +
        "next one's effectiveFrom; the employee's `salary` is the one in effect today.",
      operation: `query ($id: ID!) { employeeCompensation(employeeId: $id) { data { ${selectionOf(Compensation)} } } }`,
      variables: ({ params }) => ({ id: params.id }),
      status: 200,
      response: history,
    }),
  ],
  services: { compensationHistory: (deps: ServiceDependencies) => new CompensationHistoryService(deps) },
});
