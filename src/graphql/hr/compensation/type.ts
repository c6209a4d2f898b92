// A compensation record as every transport shows it (GraphQL, REST, OpenAPI,
// events): an employee's salary from a date on. The records of an employee are
// their pay history; the one in effect on a day is the latest from that day or
// before (current.ts, and payroll runs).
import { Field, ObjectType } from 'type-graphql';
import { Public } from '../../kit/fields.js';

@ObjectType({
  simpleResolvers: true,
  description: "An employee's salary from a date on: in effect until the day before the next record's effectiveFrom.",
})
export class Compensation {
  @Public.id()
  id!: string;

  @Public.id({ description: 'The employee it pays (fixed when it is recorded).' })
  employeeId!: string;

  @Public.money({ description: 'Integer minor units of currency per year.' })
  salary!: number;

  @Public.text({ description: 'ISO 4217 code of the salary, upper-case.' })
  currency!: string;

  @Public.date({
    nullable: true,
    description:
      'The first day it is in effect; one record per day per employee. Null: in effect since before anything ' +
      'recorded (a salary given to an employee hired without a startDate, or on file before compensation history).',
  })
  effectiveFrom!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}

@ObjectType({ simpleResolvers: true, description: "An employee's compensation records, by effectiveFrom." })
export class CompensationHistory {
  @Field(() => [Compensation], { description: 'Oldest effectiveFrom first (null first).' })
  data!: Compensation[];
}
