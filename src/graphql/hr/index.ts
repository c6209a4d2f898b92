// The HR area: one line per resource.
import { attendance } from './attendance/index.js';
import { departments } from './department/index.js';
import { departmentManager } from './department/manager.js';
import { employees } from './employee/index.js';
import { leaveRequests } from './leave-request/index.js';
import { payrollRuns } from './payroll-run/index.js';

export const hr = [
  employees.module,
  departments.module,
  departmentManager,
  attendance.module,
  leaveRequests.module,
  payrollRuns.module,
] as const;
