// The CRM area: one line per resource.
import { contacts } from './contact/index.js';
import { dealModule } from './deal/index.js';

export const crm = [contacts.module, dealModule] as const;
