// A pay component as every transport shows it (GraphQL, REST, OpenAPI,
// events): an earning or a deduction of one employee's pay, a fixed amount per
// month or a percentage of gross, from a date (to a date). No tax tables: a
// deduction is what the company declares (a pension contribution, a garnishment).
import { Float, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { oneOf, Public, type FieldKind } from '../../kit/fields.js';

export const PAY_COMPONENT_KINDS = ['earning', 'deduction'] as const;

/** A percentage with at most two decimals (5, 2.5, 12.75): an exact NUMERIC(5,2) column, a JSON number. */
export const percentageKind: FieldKind = {
  graphql: () => Float,
  schema: () => z.number(),
  sql: (column) => `${column}::float8`,
  fromRow: (value) => Number(value),
  column: 'NUMERIC(5,2)',
};

@ObjectType({
  simpleResolvers: true,
  description: "An earning or a deduction of an employee's pay: a fixed amount per month, or a percentage of gross.",
})
export class PayComponent {
  @Public.id()
  id!: string;

  @Public.id({ description: 'The employee it applies to (fixed when it is created).' })
  employeeId!: string;

  @Public.of(oneOf(PAY_COMPONENT_KINDS), {
    description: 'earning: adds to the gross; deduction: taken from the gross to make the net.',
  })
  kind!: (typeof PAY_COMPONENT_KINDS)[number];

  @Public.text({ description: 'Short, lower snake case (pension, meal_allowance): the code of its payslip lines.' })
  code!: string;

  @Public.text({ description: 'What the payslip line says.' })
  description!: string;

  @Public.money({
    nullable: true,
    description:
      'Integer minor units per month, in the currency of the pay, prorated by the days it applies in a month; ' +
      'null when a percentage.',
  })
  amount!: number | null;

  @Public.of(percentageKind, {
    nullable: true,
    description:
      'Percent (at most 2 decimals) of the gross (a deduction) or of the salary paid (an earning); null when an amount.',
  })
  percentage!: number | null;

  @Public.date({ description: 'The first day it applies.' })
  from!: string;

  @Public.date({ nullable: true, description: 'The last day it applies; null: until further notice.' })
  to!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
