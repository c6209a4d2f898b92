// Prisma's schema engine compiled to WebAssembly: applies and diffs migrations
// without the native binary that `prisma migrate` would download (docs/decisions.md,
// "Operations": migrations).
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type * as SchemaEngineWasm from '@prisma/schema-engine-wasm';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { migrateWorkerSchema } from '../jobs/worker-schema.js';
import { migrationsUpToDate } from './migrations-applied.js';
import { primaryUrl } from './multi-host.js';

const require = createRequire(import.meta.url);
const NO_FILTER = { externalTables: [], externalEnums: [] };

export const PRISMA_DIR = path.resolve(import.meta.dirname, '../../prisma');
export const SCHEMA_PATH = path.join(PRISMA_DIR, 'schema.prisma');
export const MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations');

type EngineModule = typeof SchemaEngineWasm & {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
};

let engineModule: Promise<EngineModule> | undefined;

/** Instantiates the WebAssembly module once per process, with its own JS glue as imports. */
function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const bgPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as unknown as EngineModule;
    const bytes = await readFile(path.join(path.dirname(bgPath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue as never });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return engineModule;
}

export async function withSchemaEngine<T>(
  connectionString: string,
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const datamodel = await readFile(SCHEMA_PATH, 'utf8');
  // Keep the adapters the engine opens: freeing the engine leaves their pools open.
  const factory = new PrismaPg({ connectionString, max: 2 });
  const opened: { dispose(): Promise<void> }[] = [];
  const tracked = Object.assign(Object.create(factory) as PrismaPg, {
    connect: async () => remember(await factory.connect()),
    connectToShadowDb: async () => remember(await factory.connectToShadowDb()),
  });
  function remember<A extends { dispose(): Promise<void> }>(adapter: A): A {
    opened.push(adapter);
    return adapter;
  }
  const engine = await SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, datamodel]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  try {
    return await use(engine);
  } finally {
    engine.free();
    await Promise.all(opened.map((adapter) => adapter.dispose()));
  }
}

export async function readMigrations(): Promise<MigrationList> {
  const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lockPath = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: {
            tag: 'ok' as const,
            value: await readFile(path.join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8'),
          },
        },
      })),
    ),
  };
}

/**
 * Applies every pending migration in prisma/migrations, then graphile-worker's own
 * schema (src/jobs/worker-schema.ts), which the fan-out dispatcher enqueues into;
 * returns the names applied.
 */
export async function applyMigrations(url: string): Promise<string[]> {
  // A failover group's URL: migrate the primary of now (a failover meanwhile fails the start, which is retried).
  const connectionString = await primaryUrl(url);
  const migrationsList = await readMigrations();
  // Up to date: the engine, which stays in the process once loaded, is not loaded.
  const applied = (await migrationsUpToDate(connectionString, migrationsList))
    ? []
    : await withSchemaEngine(connectionString, async (engine) => {
        const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
        return appliedMigrationNames;
      });
  await migrateWorkerSchema(connectionString);
  return applied;
}

/**
 * SQL that takes a database from the `from` schema (undefined: an empty database)
 * to the `to` schema. A schema-to-schema diff: the database's contents are not read.
 */
export async function diffSchemas(connectionString: string, from: string | undefined, to: string): Promise<string> {
  const file = (content: string) => ({ tag: 'schemaDatamodel' as const, files: [{ path: SCHEMA_PATH, content }] });
  // The engine connects at start even for a diff that reads no database.
  return withSchemaEngine(connectionString, async (engine) => {
    const result = await engine.diff({
      from: from === undefined ? { tag: 'empty' } : file(from),
      to: file(to),
      script: true,
      exitCode: null,
      filters: NO_FILTER,
    });
    return result.stdout ?? '';
  });
}
