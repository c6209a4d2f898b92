// First run outside production: an empty database gets a demo organization, an
// admin user and an `admin` API key, printed once with a ready-to-paste curl line.
import { insertApiKey, newSecret } from './auth/api-keys.js';
import { randomToken } from './auth/secrets.js';
import type { PrismaClient } from './db/prisma.js';
import { insertOrganization, prepareOrganization } from './graphql/system/organization.service.js';

export const DEMO_ADMIN_EMAIL = 'admin@demo.example';

export interface DemoCredentials {
  organizationId: string;
  adminEmail: string;
  adminPassword: string;
  apiKey: string;
  apiKeySecret: string;
}

/** Seeds the demo organization when there is no organization at all; null otherwise. */
export async function bootstrapDemo(prisma: PrismaClient): Promise<DemoCredentials | null> {
  if ((await prisma.organization.count()) > 0) return null;
  const adminPassword = randomToken(16);
  const secret = await newSecret();
  const organization = await prepareOrganization({
    name: 'Demo Organization',
    adminEmail: DEMO_ADMIN_EMAIL,
    adminPassword,
  });
  return prisma.$transaction(async (tx) => {
    // Two processes starting together on one database: only the first seeds.
    await tx.$executeRaw`select pg_advisory_xact_lock(4242001)`;
    if ((await tx.organization.count()) > 0) return null;
    const created = await insertOrganization(tx, organization);
    const key = await insertApiKey(
      tx,
      {
        organizationId: created.organization.id,
        name: 'demo admin key',
        scopes: ['admin'],
        createdByUserId: created.user.id,
      },
      secret,
    );
    return {
      organizationId: created.organization.id,
      adminEmail: DEMO_ADMIN_EMAIL,
      adminPassword,
      apiKey: key.key,
      apiKeySecret: key.secret,
    };
  });
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
