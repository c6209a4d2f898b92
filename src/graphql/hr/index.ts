// The HR area: one line per resource.
import { attendance } from './attendance/index.js';
import { employees } from './employee/index.js';
import { leaveRequests } from './leave-request/index.js';
import { payrollRuns } from './payroll-run/index.js';

export const hr = [employees.module, attendance.module, leaveRequests.module, payrollRuns.module] as const;
