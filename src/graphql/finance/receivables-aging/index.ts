// GET /finance/reports/receivables-aging (GraphQL `receivablesAging`): what
// open invoices still owe, by currency and contact, aged by days past due, with
// finance:read.
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { CalendarDate } from '../../kit/date-time.js';
import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { defineModule, type ServiceDependencies } from '../../kit/module.js';
import { AREAS } from '../../kit/resource.js';
import { route } from '../../kit/routes.js';
import { Requires } from '../../kit/scope.js';
import { calendarDate } from '../../kit/values.js';
import { ReceivablesAgingService } from './service.js';
import { ReceivablesAging } from './type.js';

const DESCRIPTION =
  'What the open invoices issued on or before `asOf` still owe (their amountDue, as it stands now), by currency ' +
  'and contact, in buckets of days past the due date at `asOf`: current (not yet due), 1–30, 31–60, 61–90, over ' +
  "90. Each currency's total is the sum of its contacts' totals, and each total the sum of its buckets. A past " +
  '`asOf` ages the current balances as of that day; it does not rebuild what was owed then.';

@Resolver(() => ReceivablesAging)
export class ReceivablesAgingResolver {
  @Requires(AREAS.finance.read)
  @Query(() => ReceivablesAging, { description: DESCRIPTION })
  receivablesAging(
    @Arg('asOf', () => CalendarDate, {
      nullable: true,
      description: "YYYY-MM-DD; default today in the organization's time zone.",
    })
    asOf: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<ReceivablesAging> {
    return ctx.services.receivablesAging.report(requirePrincipal(ctx), asOf);
  }
}

const query = z.strictObject({
  asOf: calendarDate.optional().describe("The report date, YYYY-MM-DD; default today in the organization's time zone."),
});

export const receivablesAgingModule = defineModule({
  resolvers: [ReceivablesAgingResolver],
  routes: [
    route({
      method: 'get',
      path: '/finance/reports/receivables-aging',
      tag: AREAS.finance.tag,
      summary: 'Get the receivables aging report',
      operationId: 'getReceivablesAging',
      description: DESCRIPTION,
      operation: `query ($asOf: Date) { receivablesAging(asOf: $asOf) { ${selectionOf(ReceivablesAging)} } }`,
      query,
      variables: ({ query: given }) => ({ asOf: given.asOf }),
      status: 200,
      response: responseSchemaOf(ReceivablesAging),
    }),
  ],
  services: { receivablesAging: (deps: ServiceDependencies) => new ReceivablesAgingService(deps) },
});
