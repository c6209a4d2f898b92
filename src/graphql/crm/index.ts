// The CRM area: one line per resource.
import { contacts } from './contact/index.js';
import { dealModule } from './deal/index.js';
import { dealPipelineModule } from './pipeline/index.js';

export const crm = [contacts.module, dealModule, dealPipelineModule] as const;
