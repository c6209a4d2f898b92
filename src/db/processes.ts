// What the operating system says about another process: alive or not, its parent
// and its command line. /proc on Linux, `ps` elsewhere; undefined when unknown.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export interface ProcessInfo {
  /** A zombie has exited but was not reaped yet: it is gone for every purpose here. */
  state: 'running' | 'zombie';
  ppid?: number;
  /** argv joined with spaces; undefined when it cannot be read. */
  command?: string;
}

/** undefined when no such process exists (or it is a zombie: exited, waiting to be reaped). */
export async function inspectProcess(pid: number): Promise<ProcessInfo | undefined> {
  if (!isAlive(pid)) return undefined;
  const info = (await fromProc(pid)) ?? (await fromPs(pid)) ?? { state: 'running' as const };
  if (info.state === 'zombie') return undefined;
  return info;
}

/** kill(pid, 0): true while the process exists (EPERM: it exists, as another user). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of this process, in the form inspectProcess reports for others. */
export async function ownCommandLine(): Promise<string> {
  return (
    (await fromProc(process.pid))?.command ??
    (await fromPs(process.pid))?.command ??
    [process.execPath, ...process.execArgv, ...process.argv.slice(1)].join(' ')
  );
}

async function fromProc(pid: number): Promise<ProcessInfo | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ppid ...": comm may hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
    return {
      state: state === 'Z' ? 'zombie' : 'running',
      ppid: Number(ppid),
      command: cmdline?.replace(/\0+$/, '').replace(/\0/g, ' ') || undefined,
    };
  } catch {
    return undefined;
  }
}

function fromPs(pid: number): Promise<ProcessInfo | undefined> {
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'stat=', '-o', 'ppid=', '-o', 'args=', '-p', String(pid)], (error, stdout) => {
      const match = /^\s*(\S+)\s+(\d+)\s+(.*)$/.exec(stdout.trim());
      if (error || !match) return resolve(undefined);
      resolve({ state: match[1]!.startsWith('Z') ? 'zombie' : 'running', ppid: Number(match[2]), command: match[3] });
    });
  });
}

/** Resolves true once the process is gone (or a zombie), false if it is still there at the deadline. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await inspectProcess(pid))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
