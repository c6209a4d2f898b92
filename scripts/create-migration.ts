// npm run migration:create -- <name>
// Writes prisma/migrations/<timestamp>_<name>/migration.sql with what the
// migrations so far lack, from two sources:
// - the declared resources (src/graphql/<area>/*/index.ts): the existing
//   migrations are applied to a scratch database, which is compared with each
//   declaration (src/graphql/kit/declared-schema.ts). For a resource whose table
//   is not there yet, its CREATE TABLE (a column per public field), the index its
//   lists page by, its unique indexes, foreign keys (ON DELETE as each reference
//   declares, default RESTRICT), its count triggers and the trigram index of its
//   search; for an existing table what it lacks of those (ADD COLUMN, a trigger,
//   an index...). test/migrations.test.ts checks the same.
// - the tables Prisma keeps (the system's, prisma/schema.prisma): the SQL that
//   takes the schema of the last migration (prisma/migrations/schema.snapshot.prisma)
//   to schema.prisma, diffed by the WebAssembly schema engine.
// The new migration is then applied to the scratch database and checked again.
// When nothing differs it says so and writes nothing. The database is DATABASE_URL's
// server, or the embedded PostgreSQL (attached when `npm start` runs it).
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { loadConfigOrExit } from '../src/config.js';
import { attachOrStartDatabase } from '../src/db/attach.js';
import { MIGRATIONS_DIR, SCHEMA_PATH, applyMigrations, diffSchemas } from '../src/db/schema-engine.js';
import { withScratchDatabase } from '../src/db/scratch-database.js';
import '../src/graphql/modules.js';
import { declaredResources } from '../src/graphql/kit/declared.js';
import {
  declaredSchemaGaps,
  describeGaps,
  migrationSqlOf,
  type SchemaGap,
} from '../src/graphql/kit/declared-schema.js';

const SNAPSHOT_PATH = path.join(MIGRATIONS_DIR, 'schema.snapshot.prisma');

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]+/gi, '_').toLowerCase();
if (!name) {
  console.error('usage: npm run migration:create -- <name>');
  process.exit(2);
}

async function gapsIn(url: string): Promise<SchemaGap[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await declaredSchemaGaps(client, declaredResources().values());
  } finally {
    await client.end();
  }
}

/** The Prisma part: empty when schema.prisma is the snapshot's schema. */
async function prismaDiff(url: string): Promise<string> {
  const previous = existsSync(SNAPSHOT_PATH) ? await readFile(SNAPSHOT_PATH, 'utf8') : undefined;
  const sql = await diffSchemas(url, previous, await readFile(SCHEMA_PATH, 'utf8'));
  return sql.includes('This is an empty migration') ? '' : sql.trim();
}

async function writeMigration(sql: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'migration.sql'), sql);
  await writeFile(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), 'provider = "postgresql"\n');
  await copyFile(SCHEMA_PATH, SNAPSHOT_PATH);
  return path.relative(process.cwd(), path.join(dir, 'migration.sql'));
}

// A developer's tool: it reads no secrets, so it runs as development (no master key needed).
const database = await attachOrStartDatabase(loadConfigOrExit({ NODE_ENV: 'development', ...process.env }));
try {
  await withScratchDatabase(database.directUrl, async (scratch) => {
    await applyMigrations(scratch);
    const gaps = await gapsIn(scratch);
    const prismaSql = await prismaDiff(scratch);
    if (!gaps.length && !prismaSql) {
      console.log('The migrations hold every declared resource and schema.prisma: nothing to write');
      return;
    }
    const parts = [
      prismaSql && `-- The tables Prisma keeps (prisma/schema.prisma)\n${prismaSql}\n`,
      gaps.length && `-- Declared resources (src/graphql/kit/declared-table.ts)\n\n${migrationSqlOf(gaps)}`,
    ];
    const written = await writeMigration(parts.filter(Boolean).join('\n'));
    console.log(`wrote ${written}`);
    // Applied at once to the scratch database: a migration that does not run, or leaves a gap, is said now.
    try {
      await applyMigrations(scratch);
    } catch (error) {
      console.error(`${written} does not apply: ${(error as Error).message}`);
      process.exitCode = 1;
      return;
    }
    const left = await gapsIn(scratch);
    if (left.length) {
      console.error(`${written} applies but leaves these gaps:\n${describeGaps(left)}`);
      process.exitCode = 1;
    }
  });
} finally {
  await database.close();
}
