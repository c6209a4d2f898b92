// Departments, declared once (see kit/resource.ts). Particular to them: a
// department is part of at most one other, with no cycle through itself (as an
// employee's manager); it is headed by an employee of the organization; and it
// cannot be deleted while employees or sub-departments belong to it (409).
// `managerId` is checked here rather than declared as a reference: employees
// reference departments (`departmentId`), and two declarations cannot each need
// the other first. Its foreign key (ON DELETE SET NULL) is in the migration and
// its relation fields in ./manager.ts.
import { requireEmployeeReference } from '../employee/employee-reference.js';
import { event } from '../../../events/event.js';
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { departmentInput, departmentList } from './input.js';
import { Department } from './type.js';

export const departments = defineResource({
  type: Department,
  idPrefix: 'dep',
  area: AREAS.hr,
  path: 'departments',
  names: { one: 'department', many: 'departments' },
  input: departmentInput,
  list: departmentList,
  operations: { delete: true },
  unique: { code: 'A department with this code already exists in the organization' },
  references: {
    parentId: {
      target: 'self',
      name: 'parent',
      description: 'The department it is part of.',
      inverse: { name: 'subDepartments', description: 'The departments part of this one, oldest first.' },
      acyclic: 'must not be the department or one of its sub-departments',
    },
  },
  events: {
    created: event('department.created', 'A department was created (POST /hr/departments).'),
    updated: event('department.updated', 'A department was changed (PUT /hr/departments/:id).'),
    deleted: event('department.deleted', 'A department was deleted (DELETE /hr/departments/:id).'),
  },
  conflicts: { delete: 'Employees or sub-departments still belong to the department: move them first' },
  descriptions: {
    create: 'Emits `department.created`.',
    update: 'Partial. A `parentId` that would make a cycle is a 400. Emits `department.updated`.',
    delete: 'Only while no employee and no department belongs to it (409). Emits `department.deleted`.',
  },
  rules: {
    async create({ managerId }, rules) {
      await requireEmployeeReference(rules, 'managerId', managerId);
    },
    async update({ changes }, rules) {
      await requireEmployeeReference(rules, 'managerId', changes.managerId);
    },
  },
  examples: {
    create: (n) => ({ name: `Research ${n}`, code: `RES-${n}` }),
    update: { name: 'Research and development' },
  },
});
