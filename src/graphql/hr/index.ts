// The HR area: one line per resource.
import { attendance } from './attendance/index.js';
import { compensationHistoryModule } from './compensation/history.js';
import { compensations } from './compensation/index.js';
import { employees } from './employee/index.js';
import { leaveRequests } from './leave-request/index.js';
import { payComponents } from './pay-component/index.js';
import { payrollRuns } from './payroll-run/index.js';
import { payslipModule } from './payroll-run/payslips.js';

export const hr = [
  employees.module,
  attendance.module,
  leaveRequests.module,
  payrollRuns.module,
  compensations.module,
  compensationHistoryModule,
  payComponents.module,
  payslipModule,
] as const;
