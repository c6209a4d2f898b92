// The HR area: one line per resource.
import { attendance } from './attendance/index.js';
import { departments } from './department/index.js';
import { departmentManager } from './department/manager.js';
import { compensationHistoryModule } from './compensation/history.js';
import { compensations } from './compensation/index.js';
import { employees } from './employee/index.js';
import { holidays } from './holiday/index.js';
import { leaveBalanceModule } from './leave-balance/index.js';
import { leavePolicies } from './leave-policy/index.js';
import { leaveRequests } from './leave-request/index.js';
import { payComponents } from './pay-component/index.js';
import { payrollRuns } from './payroll-run/index.js';
import { payslipModule } from './payroll-run/payslips.js';

export const hr = [
  employees.module,
  departments.module,
  departmentManager,
  attendance.module,
  leaveRequests.module,
  payrollRuns.module,
  holidays.module,
  leavePolicies.module,
  leaveBalanceModule,
  compensations.module,
  compensationHistoryModule,
  payComponents.module,
  payslipModule,
] as const;
