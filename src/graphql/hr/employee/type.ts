// The Employee as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { computed, FIELD_KINDS, objectList, oneOf, Public } from '../../kit/fields.js';
import { currentCompensationSql } from '../compensation/current.js';
import { Employment, employmentsSql } from './employments.js';

export const EMPLOYEE_STATUSES = ['active', 'terminated'] as const;

/** The name of the employee's department, read with the record (never stored: it follows a rename). */
const departmentName = computed(
  FIELD_KINDS.text,
  (table) => `(select d.name from "Department" d where d.id = "${table}"."departmentId")`,
);

@ObjectType({ simpleResolvers: true, description: 'A person employed by the organization.' })
export class Employee {
  @Public.id()
  id!: string;

  @Public.text()
  firstName!: string;

  @Public.text()
  lastName!: string;

  @Public.email({ description: 'Unique within the organization; stored lower-cased.' })
  email!: string;

  @Public.text({ nullable: true })
  jobTitle!: string | null;

  @Public.id({ nullable: true, description: 'The department the employee belongs to (GET /hr/departments).' })
  departmentId!: string | null;

  @Public.of(departmentName, {
    nullable: true,
    description: "The name of the employee's department (read-only: set `departmentId`).",
  })
  department!: string | null;

  @Public.id({ nullable: true, description: 'Another employee of the organization.' })
  managerId!: string | null;

  @Public.date({ nullable: true, description: 'The first day of the current (latest) period of employment.' })
  startDate!: string | null;

  @Public.of(computed(FIELD_KINDS.money, currentCompensationSql('salary')), {
    nullable: true,
    scope: 'hr:payroll',
    description:
      "Integer minor units of currency per year: the compensation in effect today (organization's time zone; " +
      'before the first takes effect, that one). History: GET /hr/employees/:id/compensation.',
  })
  salary!: number | null;

  @Public.of(computed(FIELD_KINDS.text, currentCompensationSql('currency')), {
    nullable: true,
    scope: 'hr:payroll',
    description: 'ISO 4217 code of the salary, upper-case.',
  })
  currency!: string | null;

  @Public.text({ nullable: true })
  phone!: string | null;

  @Public.of(oneOf(EMPLOYEE_STATUSES), { description: 'Changed by the terminate and reinstate actions only.' })
  status!: (typeof EMPLOYEE_STATUSES)[number];

  @Public.date({ nullable: true, description: 'Set by terminate; cleared by reinstate.' })
  endDate!: string | null;

  @Public.of(objectList(Employment, employmentsSql), {
    description: 'Its periods of employment, oldest first: the hire, then one per reinstatement.',
  })
  employments!: Employment[];

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
