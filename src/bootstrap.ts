// First run with local conveniences on (src/local-conveniences.ts): an empty database
// gets a demo organization, an admin user and an `admin` API key, printed once with a
// ready-to-paste curl line. Never on a deployment: it prints a password and keys.
import { operatorPrincipal } from './auth/principal.js';
import { randomToken } from './auth/secrets.js';
import type { Services } from './graphql/modules.js';

export const DEMO_ADMIN_EMAIL = 'admin@demo.example';

export interface DemoCredentials {
  organizationId: string;
  adminEmail: string;
  adminPassword: string;
  apiKey: string;
  apiKeySecret: string;
}

/**
 * Seeds the demo organization when there is no organization at all; null
 * otherwise. Goes through the services, as the CLI does.
 */
export async function bootstrapDemo(services: Services): Promise<DemoCredentials | null> {
  const adminPassword = randomToken(16);
  const created = await services.organizations.createFirst({
    name: 'Demo Organization',
    adminEmail: DEMO_ADMIN_EMAIL,
    adminPassword,
  });
  if (!created) return null;
  const key = await services.apiKeys.create(operatorPrincipal(created.organization.id, created.user.id), {
    name: 'demo admin key',
    scopes: ['admin'],
  });
  return {
    organizationId: created.organization.id,
    adminEmail: DEMO_ADMIN_EMAIL,
    adminPassword,
    apiKey: key.key,
    apiKeySecret: key.secret,
  };
}

export function demoBanner(demo: DemoCredentials, publicUrl: string): string {
  return [
    '',
    'Created a demo organization (shown once; store these now):',
    `  organization: ${demo.organizationId}`,
    `  admin user:   ${demo.adminEmail} / ${demo.adminPassword}`,
    `  API key:      ${demo.apiKey}`,
    `  key secret:   ${demo.apiKeySecret}`,
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer ${demo.apiKey}" ${publicUrl}/v1/crm/contacts`,
    '',
  ].join('\n');
}
