// Stoplight Prism (@stoplight/prism-cli) as a validating proxy in front of a
// test server: it checks each request and each answer that pass through it
// against an OpenAPI document and reports what disagrees in the answer's
// `sl-violations` header. It runs without --errors, so every request reaches
// the server (a request the document refuses still gets the server's own
// answer, which is checked too).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import type { TestResponse } from './server.js';

export interface Violation {
  /** ['request', 'body', ...] or ['response', ...]. */
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface ProxiedResponse extends TestResponse {
  /** What Prism found wrong with the request, by the document. */
  requestViolations: Violation[];
  /** What Prism found wrong with the answer, by the document. */
  responseViolations: Violation[];
}

export interface PrismProxy {
  url: string;
  /** What Prism printed (its log), for a failure's message. */
  output(): string;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const PRISM_CLI = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

/** Starts `prism proxy <document> <upstream>` on a free loopback port; resolves once it answers. */
export async function startPrismProxy(document: object, upstream: string): Promise<PrismProxy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'prism-'));
  const file = path.join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(document));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM_CLI, 'proxy', file, upstream, '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await untilListening(url, child, () => log);
  } catch (error) {
    await close();
    throw error;
  }
  return { url, output: () => log, close };
}

async function untilListening(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}:\n${log()}`);
    // Any HTTP answer means it listens (Prism answers an unknown path itself).
    if (
      await fetch(`${url}/`).then(
        () => true,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`prism did not start in 30 s:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function violationsOf(headers: Headers): Violation[] {
  const header = headers.get('sl-violations');
  if (!header) return [];
  try {
    return JSON.parse(header) as Violation[];
  } catch {
    // Prism cuts a header over 8 KiB short ("Too many violations! ..."): still a violation.
    return [{ location: ['response'], severity: 'Error', message: header }];
  }
}

/** A request through the proxy; `path` is under the document's server URL (e.g. /crm/contacts). */
export async function throughPrism(
  proxy: PrismProxy,
  method: string,
  target: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ProxiedResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(proxy.url + target, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const violations = violationsOf(response.headers);
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: parsed,
    requestViolations: violations.filter((v) => v.location[0] !== 'response'),
    responseViolations: violations.filter((v) => v.location[0] === 'response'),
  };
}
