// The PayrollRun as every transport shows it (GraphQL, REST, OpenAPI, events),
// with its items read by the same select list as its columns.
import { ObjectType } from 'type-graphql';
import { objectList, oneOf, Public } from '../../kit/fields.js';

export const PAYROLL_RUN_STATUSES = ['draft', 'processed'] as const;

@ObjectType({ simpleResolvers: true, description: "One employee's gross pay for the period of a payroll run." })
export class PayrollItem {
  @Public.id()
  employeeId!: string;

  @Public.money({ description: 'Integer minor units of currency: the annual salary prorated over the period.' })
  grossAmount!: number;

  @Public.text({ description: "ISO 4217 code of the employee's salary." })
  currency!: string;
}

// In the order they were computed: the employees' order (createdAt, then id).
const items = (table: string) => `(select coalesce(jsonb_agg(jsonb_build_object(
    'employeeId', i."employeeId", 'grossAmount', i."grossAmount"::float8, 'currency', i.currency)
    order by i."createdAt", i.id), '[]'::jsonb)
  from "PayrollItem" i where i."runId" = "${table}".id)`;

@ObjectType({ simpleResolvers: true, description: 'The gross pay of the active employees for one period.' })
export class PayrollRun {
  @Public.id()
  id!: string;

  @Public.date({ description: 'First day of the period.' })
  periodStart!: string;

  @Public.date({ description: 'Last day of the period (inclusive).' })
  periodEnd!: string;

  @Public.date({ description: 'Default periodEnd; not before periodStart.' })
  payDate!: string;

  @Public.of(oneOf(PAYROLL_RUN_STATUSES), { description: 'draft until the process action; then processed.' })
  status!: (typeof PAYROLL_RUN_STATUSES)[number];

  @Public.of(objectList(PayrollItem, items), {
    description: 'One per active employee with a salary, computed when the run is created.',
  })
  items!: PayrollItem[];

  @Public.idList({
    description: 'Active employees left out of the run: without a salary, or starting after the period.',
  })
  skippedEmployeeIds!: string[];

  @Public.timestamp({ nullable: true, description: 'Set by the process action.' })
  processedAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
