// The finance area: one line per resource.
import { expenseModule } from './expense/index.js';

export const finance = [expenseModule] as const;
