// Once per `vitest run`: a PostgreSQL server (DATABASE_URL's, or an embedded one
// in a temporary directory) and a template database with every migration
// applied. Each test file clones the template, so files run in parallel.
import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { quoteIdentifier, withDatabaseName } from '../../src/db/database-url.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { applyMigrations, readMigrations } from '../../src/db/schema-engine.js';
import { freePort } from './free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresServerUrl: string;
    templateDatabase: string;
  }
}

/** Names the template after the migrations, so a changed migration makes a new one. */
async function templateName(): Promise<string> {
  const list = await readMigrations();
  const hash = createHash('sha256');
  for (const dir of list.migrationDirectories) {
    hash.update(dir.path);
    if (dir.migrationFile.content.tag === 'ok') hash.update(dir.migrationFile.content.value);
  }
  hash.update(await readFile(path.resolve('prisma/schema.prisma')));
  return `bp_template_${hash.digest('hex').slice(0, 12)}`;
}

export default async function setup(project: TestProject) {
  let stop = async () => {};
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // A cluster of its own per run (initdb takes ~2 s), so concurrent runs never share one.
    const dir = await mkdtemp(path.join(tmpdir(), 'bp-test-postgres-'));
    await chmod(dir, 0o755); // as root, PostgreSQL runs as the postgres user and must enter it
    const embedded = await startEmbeddedPostgres({ dir, port: await freePort() });
    serverUrl = embedded.serverUrl;
    stop = async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const template = await templateName();
  const admin = new pg.Client({ connectionString: withDatabaseName(serverUrl, 'postgres') });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (!rowCount) {
      const building = `${template}_building_${process.pid}`;
      await admin.query(`create database ${quoteIdentifier(building)}`);
      await applyMigrations(withDatabaseName(serverUrl, building));
      await admin.query(`alter database ${quoteIdentifier(building)} rename to ${quoteIdentifier(template)}`);
    }
  } finally {
    await admin.end();
  }
  project.provide('postgresServerUrl', serverUrl);
  project.provide('templateDatabase', template);
  return stop;
}
