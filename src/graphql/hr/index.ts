// The HR area: one line per resource.
import { employeeModule } from './employee/index.js';
import { payrollRunModule } from './payroll-run/index.js';

export const hr = [employeeModule, payrollRunModule] as const;
