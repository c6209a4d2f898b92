// GET /hr/employees/:id/leave-balances over the `leaveBalances` query.
import { z } from 'zod';
import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { route } from '../../kit/routes.js';
import { calendarDate } from '../../kit/values.js';
import { LeaveBalance } from './type.js';

const query = z.strictObject({
  date: calendarDate
    .optional()
    .describe(
      "The balances of this date's year, accrued as of it (YYYY-MM-DD); default today in the organization's time zone.",
    ),
});

export const leaveBalanceRoutes = [
  route({
    method: 'get',
    path: '/hr/employees/:id/leave-balances',
    tag: 'HR',
    summary: "Get an employee's leave balances",
    operationId: 'getEmployeeLeaveBalances',
    description:
      'One row per type of leave with a policy (GET /hr/leave-policies) in force that year: entitledDays (accrued, ' +
      'prorated over the days employed, plus carriedOverDays), takenDays (approved), requestedDays (pending) and ' +
      'remainingDays (entitled − taken). Days are working days; a request over New Year counts in each year. ' +
      'Unpaid leave, and a type without a policy, have no balance.',
    operation: `query ($id: ID!, $date: Date) { leaveBalances(employeeId: $id, date: $date) {
      data { ${selectionOf(LeaveBalance)} } } }`,
    query,
    variables: ({ params, query: given }) => ({ id: params.id, date: given.date }),
    status: 200,
    response: z.object({ data: z.array(responseSchemaOf(LeaveBalance)) }).meta({ id: 'LeaveBalanceList' }),
  }),
];
