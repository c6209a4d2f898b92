// Prisma CLI configuration. The URL is only a placeholder for `prisma generate`,
// which never connects; the service itself reads DATABASE_URL in src/config.ts.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/placeholder' },
});
