// Which process owns the embedded PostgreSQL of a DATA_DIR: <dir>/owner.json, next
// to the cluster, names the service (or CLI) process that started it. Created
// atomically (a hard link of a complete file, which fails if one exists); a file
// whose process is gone is stale and taken over, as PostgreSQL does with its own
// postmaster.pid.
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspectProcess, ownCommandLine } from './processes.js';

export type OwnerKind = 'service' | 'cli';

export interface Owner {
  pid: number;
  kind: OwnerKind;
  /** The owner's command line, to tell it from an unrelated process that got its pid later. */
  command: string;
  since: string;
}

const DESCRIPTION: Record<OwnerKind, string> = {
  service: 'another running service',
  cli: 'a running operator CLI command',
};

/** A second process on the same data directory: its message is the one line an operator needs. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner?: Pick<Owner, 'pid' | 'kind'>,
    what?: string,
  ) {
    super(
      `the data directory ${dataDir} is in use by ${what ?? (owner ? DESCRIPTION[owner.kind] : 'another running process')}` +
        (owner ? ` (pid ${owner.pid})` : '') +
        ': stop it first, or set DATA_DIR to another directory',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

export function ownerFile(dir: string): string {
  return path.join(dir, 'owner.json');
}

/** The owner recorded in dir, if that process is still running; undefined otherwise. */
export async function liveOwner(dir: string): Promise<Owner | undefined> {
  const owner = await readOwner(ownerFile(dir));
  if (!owner || owner.pid === process.pid) return undefined;
  const running = await inspectProcess(owner.pid);
  // Another program may have been given the pid since: compare command lines when both are known.
  if (!running || (running.command !== undefined && running.command !== owner.command)) return undefined;
  return owner;
}

/**
 * Records this process as the owner of `dir` (the embedded PostgreSQL's directory
 * under DATA_DIR); DataDirInUseError when a live process already is.
 */
export async function lockDataDir(dir: string, dataDir: string, kind: OwnerKind): Promise<DataDirLock> {
  const file = ownerFile(dir);
  const owner: Owner = { pid: process.pid, kind, command: await ownCommandLine(), since: new Date().toISOString() };
  const draft = `${file}.${process.pid}`;
  await writeFile(draft, JSON.stringify(owner) + '\n', { mode: 0o644 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw error;
      }
      const current = await liveOwner(dir);
      if (current) throw new DataDirInUseError(dataDir, current);
      // Stale: its process is gone. Remove it and try again.
      await unlink(file).catch(ignoreMissing);
    }
  } finally {
    await unlink(draft).catch(ignoreMissing);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      const current = await readOwner(file);
      if (current?.pid === process.pid) await unlink(file).catch(ignoreMissing);
    },
  };
}

async function readOwner(file: string): Promise<Owner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Owner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.command !== 'string') return undefined;
    return {
      pid: parsed.pid,
      kind: parsed.kind === 'cli' ? 'cli' : 'service',
      command: parsed.command,
      since: String(parsed.since),
    };
  } catch {
    // Missing, or not ours to read: nobody we can name.
    return undefined;
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
