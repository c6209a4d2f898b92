// Whether the database already has every migration of prisma/migrations, each as
// it is on disk, and none half-applied: then the schema engine has nothing to do,
// and a start need not load it. The engine is WebAssembly that stays in the
// process once loaded (about 20 MB of resident memory: docs/decisions.md, "A
// lighter process"); most starts are restarts on a database that is up to date.
// Anything else (a new or changed migration, a failed one, a migration the
// database has and the directory does not, no table yet) is the engine's to
// apply or to report, as before.
import { createHash } from 'node:crypto';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import pg from 'pg';

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export async function migrationsUpToDate(connectionString: string, migrations: MigrationList): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const rows = await client
      .query<AppliedRow>(
        'select migration_name, checksum, finished_at, rolled_back_at from _prisma_migrations where rolled_back_at is null',
      )
      .then(({ rows }) => rows)
      // No table: a database never migrated.
      .catch((error: { code?: string }) => (error.code === '42P01' ? undefined : Promise.reject(error)));
    if (!rows || rows.some((row) => row.finished_at === null)) return false;
    const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const local = migrations.migrationDirectories;
    if (applied.size !== local.length) return false;
    return local.every(({ path, migrationFile: { content } }) => {
      // The engine's checksum: SHA-256 of the file as it is (hex).
      const checksum = content.tag === 'ok' ? createHash('sha256').update(content.value).digest('hex') : undefined;
      return checksum !== undefined && applied.get(path) === checksum;
    });
  } finally {
    await client.end();
  }
}
