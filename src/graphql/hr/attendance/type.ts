// The attendance record as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { oneOf, Public } from '../../kit/fields.js';

export const ATTENDANCE_STATUSES = ['open', 'closed'] as const;

@ObjectType({ simpleResolvers: true, description: "One stretch of an employee's work: a clock-in and its clock-out." })
export class Attendance {
  @Public.id()
  id!: string;

  @Public.id({ description: 'An employee of the organization.' })
  employeeId!: string;

  @Public.timestamp()
  clockIn!: string;

  @Public.timestamp({ nullable: true, description: 'Set by clock-out; null while open.' })
  clockOut!: string | null;

  @Public.of(oneOf(ATTENDANCE_STATUSES), { description: 'open until the clock-out action closes it.' })
  status!: (typeof ATTENDANCE_STATUSES)[number];

  @Public.int({ nullable: true, description: 'Whole minutes from clockIn to clockOut; null while open.' })
  minutesWorked!: number | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
