// The system area: one line per resource.
import { accountModule } from './account/index.js';
import { apiKeyModule } from './api-key/index.js';
import { changeModule } from './change/index.js';
import { eventModule } from './event/index.js';
import { exportModule } from './export/index.js';
import { importModule } from './import/index.js';
import { oauthAppModule } from './oauth-app/index.js';
import { oauthGrantModule } from './oauth-grant/index.js';
import { organizationModule } from './organization/index.js';
import { sessionModule } from './session/index.js';
import { userModule } from './user/index.js';
import { viewerModule } from './viewer/index.js';
import { webhookDeliveryModule } from './webhook-delivery/index.js';
import { webhookModule } from './webhook/index.js';

export const system = [
  organizationModule,
  userModule,
  apiKeyModule,
  eventModule,
  changeModule,
  webhookModule,
  webhookDeliveryModule,
  oauthAppModule,
  oauthGrantModule,
  sessionModule,
  exportModule,
  importModule,
  viewerModule,
  accountModule,
] as const;
