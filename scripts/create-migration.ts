// npm run migration:create -- <name>
// Writes prisma/migrations/<timestamp>_<name>/migration.sql: the SQL that takes the
// schema of the last migration (kept as prisma/migrations/schema.snapshot.prisma)
// to the current prisma/schema.prisma, diffed by the WebAssembly schema engine.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfigOrExit } from '../src/config.js';
import { MIGRATIONS_DIR, SCHEMA_PATH, diffSchemas } from '../src/db/schema-engine.js';
import { attachOrStartDatabase } from '../src/db/attach.js';

const SNAPSHOT_PATH = path.join(MIGRATIONS_DIR, 'schema.snapshot.prisma');

const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]+/gi, '_').toLowerCase();
if (!name) {
  console.error('usage: npm run migration:create -- <name>');
  process.exit(2);
}

const previous = existsSync(SNAPSHOT_PATH) ? await readFile(SNAPSHOT_PATH, 'utf8') : undefined;
const current = await readFile(SCHEMA_PATH, 'utf8');
// The engine insists on a reachable database even for a schema-to-schema diff.
// A developer's tool: it only diffs schemas, so it runs as development (no master key needed).
const database = await attachOrStartDatabase(loadConfigOrExit({ NODE_ENV: 'development', ...process.env }));
const sql = await diffSchemas(database.directUrl, previous, current).finally(() => database.close());
if (!sql.trim() || sql.includes('This is an empty migration')) {
  console.log('schema.prisma matches the last migration: nothing to write');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, 'migration.sql'), sql);
await writeFile(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), 'provider = "postgresql"\n');
await copyFile(SCHEMA_PATH, SNAPSHOT_PATH);
console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
