// The system area: one line per resource.
import { apiKeyModule } from './api-key/index.js';
import { eventModule } from './event/index.js';
import { organizationModule } from './organization/index.js';

export const system = [organizationModule, apiKeyModule, eventModule] as const;
