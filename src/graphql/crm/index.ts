// The CRM area: one line per resource.
import { contactModule } from './contact/index.js';
import { dealModule } from './deal/index.js';

export const crm = [contactModule, dealModule] as const;
