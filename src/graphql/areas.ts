// The business areas' modules (every declared resource): modules.ts serves them
// beside the system ones, and the event catalogue (src/events/catalogue.ts)
// loads them to read the declarations. Adding an area adds one entry here.
import { crm } from './crm/index.js';
import { finance } from './finance/index.js';
import { hr } from './hr/index.js';

export const AREA_MODULES = [...crm, ...hr, ...finance] as const;
