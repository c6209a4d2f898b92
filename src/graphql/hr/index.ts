// The HR area: one line per resource.
import { employeeModule } from './employee/index.js';

export const hr = [employeeModule] as const;
