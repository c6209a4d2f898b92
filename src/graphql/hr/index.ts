// The HR area: one line per resource.
import { attendanceModule } from './attendance/index.js';
import { employeeModule } from './employee/index.js';
import { leaveRequestModule } from './leave-request/index.js';
import { payrollRunModule } from './payroll-run/index.js';

export const hr = [employeeModule, attendanceModule, leaveRequestModule, payrollRunModule] as const;
