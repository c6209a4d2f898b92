// Employees, declared once (see kit/resource.ts). Particular to them: a salary
// needs its currency, a manager is another employee of the organization with
// no cycle through this one (its reference is acyclic), and termination ends on a day not before the start.
import { event } from '../../../events/event.js';
import { DomainError } from '../../../errors.js';
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { organizationToday } from '../calendar/today.js';
import { moveHireCompensation, recordCompensationChange, recordHireCompensation } from '../compensation/salary.js';
import { departments } from '../department/index.js';
import { openEmployment, setLatestEmployment } from './employments.js';
import { EMPLOYEE_ID_PREFIX } from './id-prefix.js';
import { employeeInput, employeeList, reinstateInput, terminateInput } from './input.js';
import { Employee } from './type.js';

export const employees = defineResource({
  type: Employee,
  idPrefix: EMPLOYEE_ID_PREFIX,
  area: AREAS.hr,
  path: 'employees',
  names: { one: 'employee', many: 'employees' },
  input: employeeInput,
  list: employeeList,
  unique: { email: 'An employee with this email already exists in the organization' },
  label: { word: 'name', sql: (t) => `concat_ws(' ', "${t}"."firstName", "${t}"."lastName")` },
  references: {
    managerId: {
      target: 'self',
      onDelete: 'set null',
      inverse: { name: 'reports', description: "The employee's direct reports, oldest first." },
      acyclic: 'must not be the employee or someone who reports to them',
    },
    // Deleting a department with employees is a 409 (docs/decisions.md, Departments).
    departmentId: {
      target: departments,
      onDelete: 'restrict',
      name: 'departmentRecord',
      description: "The employee's department as a record (its code, manager, parent); `department` is its name.",
      inverse: { name: 'employees', description: "The department's employees, oldest first." },
    },
  },
  events: {
    created: event('employee.created', 'An employee was added (POST /hr/employees).'),
    updated: event('employee.updated', "An employee's record was changed (PUT /hr/employees/:id)."),
  },
  lifecycle: {
    field: 'status',
    initial: 'active',
    // A former employee's record is still corrected (an address, a salary on file); reinstate reopens it.
    editableIn: ['active', 'terminated'],
    actions: {
      terminate: {
        from: ['active'],
        to: 'terminated',
        description:
          "Ends the employment on `endDate` (default today in the organization's time zone; not before " +
          '`startDate`). A later `endDate` records the notice: the employee stays active until that day ends ' +
          'there, then becomes terminated by itself (`employee.terminated`, actor `system`). Terminate again ' +
          'to move the date.',
        input: terminateInput,
        changes: ['endDate'],
        sets: async ({ endDate }, employee, rules) => {
          const today = await organizationToday(rules);
          const last = endDate ?? today;
          if (employee.startDate && last < employee.startDate) {
            throw new DomainError('VALIDATION_ERROR', "'endDate': must not be before the startDate", 'endDate');
          }
          await setLatestEmployment(rules, employee.id, 'endDate', last);
          return last > today ? { status: 'active', endDate: last } : { endDate: last };
        },
        event: event('employee.terminated', 'An employee was terminated: at once, or when the notice ended.', {
          actor: 'the caller, or system when a notice ends',
        }),
        otherwise: {
          event: event(
            'employee.notice_given',
            'A future end date was recorded (POST /hr/employees/:id/terminate): the employee stays active until it.',
          ),
          applies: (changes) => changes.status === 'active',
        },
      },
      reinstate: {
        from: ['terminated'],
        to: 'active',
        description:
          'Makes a terminated employee active again in a new period of employment from `startDate` (default ' +
          "today in the organization's time zone): the gap is not paid. A `startDate` on or before the last " +
          "period's end withdraws the termination instead: that period goes on.",
        input: reinstateInput,
        sets: async ({ startDate }, employee, rules) => {
          const first = startDate ?? (await organizationToday(rules));
          if (employee.endDate && first <= employee.endDate) {
            await setLatestEmployment(rules, employee.id, 'endDate', null);
            return { endDate: null };
          }
          await openEmployment(rules, employee.id, first);
          return { startDate: first, endDate: null };
        },
        event: event('employee.reinstated', 'A terminated employee was reinstated.'),
      },
    },
  },
  rules: {
    check(employee) {
      if (employee.salary != null && employee.currency == null) {
        throw new DomainError('VALIDATION_ERROR', "'currency': is required with a salary", 'currency');
      }
      // The salary is compensation history: a currency alone has nothing to go with, and a salary stays.
      if (employee.salary == null && employee.currency != null) {
        throw new DomainError(
          'VALIDATION_ERROR',
          "'salary': is required with a currency (a salary is not cleared: delete its compensation records)",
          'salary',
        );
      }
    },
    async afterCreate(employee, rules, values) {
      await openEmployment(rules, employee.id, employee.startDate);
      await recordHireCompensation(rules, employee.id, values);
    },
    async update({ before, changes }, rules) {
      if ('startDate' in changes) {
        await setLatestEmployment(rules, before.id, 'startDate', changes.startDate as string | null);
        await moveHireCompensation(rules, before.id, before.startDate, changes.startDate as string | null);
      }
      await recordCompensationChange(rules, before, changes);
    },
  },
  // No salary: setting one needs hr:payroll besides the area's scopes (the suites' keys hold those alone).
  examples: {
    create: (n) => ({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `employee-${n}@example.test`,
      jobTitle: 'Engineer',
      startDate: '2020-01-06',
    }),
    update: { jobTitle: 'Rear admiral', phone: '+1 202 555 0100' },
    actions: { terminate: { endDate: '2026-06-30' }, reinstate: { startDate: '2026-09-01' } },
  },
});
