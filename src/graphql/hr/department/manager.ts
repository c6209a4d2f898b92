// A department's manager as relation fields, `Department.manager` and
// `Employee.managedDepartments(page, limit)`, as a declared reference would make
// them. Its own module, loaded after both declarations: departments cannot
// declare the reference (see ./index.ts).
import { defineModule } from '../../kit/module.js';
import { referenceRelations } from '../../kit/relations.js';
import { employees } from '../employee/index.js';
import { departments } from './index.js';

export const departmentManager = defineModule({
  resolvers: referenceRelations(departments.resource, 'managerId', {
    name: 'manager',
    target: employees.resource,
    description: 'The employee who heads the department.',
    inverse: { name: 'managedDepartments', description: 'The departments the employee heads, oldest first.' },
  }),
  routes: [],
  services: {},
});
