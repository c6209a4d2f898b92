// The CRM area: one line per resource.
import { contactModule } from './contact/index.js';

export const crm = [contactModule] as const;
