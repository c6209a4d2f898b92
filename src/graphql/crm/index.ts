// The CRM area: one line per resource.
import { contacts } from './contact/index.js';
import { deals } from './deal/index.js';
import { dealPipelineModule } from './pipeline/index.js';

export const crm = [contacts.module, deals.module, dealPipelineModule] as const;
