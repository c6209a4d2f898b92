// The production path: `npm run build` compiles a server that starts and serves
// (type-graphql's decorators and Prisma's generated client compiled by tsc, not run
// through tsx), started as `npm run start:prod` starts it; and start:prod refuses a
// build older than the sources instead of serving it. `npm start` runs compiled code
// too: its own copy of src/ (.build/), compiled when the sources changed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { freePort } from './support/free-port.js';
import { npmScript } from './support/npm-script.js';
import { Browser } from './support/oauth.js';

// tsc over src/ takes 13 s of CPU on the 2-core development machine, more beside other tests.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 240_000 });

const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.source-hash');
let database: TestDatabase;
const children = new Set<ChildProcess>();

/** `npm run <script>` as its shell would run it: its environment, and node with its arguments. */
function startScript(env: Record<string, string>, script = 'start:prod') {
  const { env: scriptEnv, command, args } = npmScript(script);
  expect(command).toBe('node');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...scriptEnv, PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? ROOT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await database?.drop();
});

describe('npm run start:prod', () => {
  it('serves from dist/: health, REST and GraphQL (decorators and the Prisma client compiled)', async () => {
    const port = await freePort();
    const service = startScript({ DATABASE_URL: database.url, PORT: String(port), NODE_ENV: 'test' });
    const url = `http://127.0.0.1:${port}`;
    await expect
      .poll(() => service.output().includes('"listening"') || service.child.exitCode !== null, { timeout: 45_000 })
      .toBe(true);
    expect(service.child.exitCode, service.output()).toBeNull();
    // It runs the compiled files: no tsx loader in the process.
    expect(readFileSync(`/proc/${service.child.pid}/cmdline`, 'utf8')).not.toContain('tsx');

    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // The first start on an empty database prints the demo organization's key (NODE_ENV=test).
    const key = /\bbpk_[0-9A-Za-z]+/.exec(service.output())?.[0];
    expect(key, service.output()).toBeDefined();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/v1/crm/contacts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'built@example.test', firstName: 'Ada' }),
    });
    expect(created.status).toBe(201);
    const graphql = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: '{ contacts(limit: 5) { data { email firstName } } }' }),
    });
    expect(await graphql.json()).toEqual({
      data: { contacts: { data: [{ email: 'built@example.test', firstName: 'Ada' }] } },
    });

    // The dashboard's browser code is bundled from src/ by the compiled server too.
    const browser = new Browser(url);
    const admin = /admin user:\s+(\S+) \/ (\S+)/.exec(service.output());
    expect(admin, service.output()).not.toBeNull();
    const signedIn = await browser.signIn(await browser.get('/dashboard'), { email: admin![1]!, password: admin![2]! });
    const dashboard = await browser.get(signedIn.location!);
    const script = /<script type="module" src="([^"]+)"/.exec(dashboard.html)?.[1];
    expect(script, dashboard.html).toMatch(/^\/dashboard\/assets\/app\.[\w-]+\.js$/);
    const bundle = await fetch(url + script);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('text/javascript');

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });

  it('refuses a build older than the sources, saying to run npm run build', async () => {
    const built = readFileSync(STAMP, 'utf8');
    writeFileSync(STAMP, 'compiled-from-other-sources\n');
    try {
      const service = startScript({ DATABASE_URL: database.url, PORT: String(await freePort()) });
      expect(await service.exited).toBe(78);
      expect(service.output()).toContain('dist/ was compiled from other sources than src/ holds now');
      expect(service.output()).toContain('npm run build');
    } finally {
      writeFileSync(STAMP, built);
    }
  });
});

describe('npm start', () => {
  it('runs the sources compiled, no TypeScript loader in the process, in little memory', async () => {
    const port = await freePort();
    const service = startScript({ DATABASE_URL: database.url, PORT: String(port), NODE_ENV: 'test' }, 'start');
    await expect
      .poll(() => service.output().includes('"listening"') || service.child.exitCode !== null, { timeout: 60_000 })
      .toBe(true);
    expect(service.child.exitCode, service.output()).toBeNull();
    expect(readFileSync(`/proc/${service.child.pid}/cmdline`, 'utf8')).not.toContain('tsx');
    // Compiled from the sources as they are: the same as npm run build's (beforeAll).
    expect(readFileSync(path.join(ROOT, '.build', '.source-hash'), 'utf8')).toBe(readFileSync(STAMP, 'utf8'));
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // Idle, it holds what it serves with and not much more (docs/decisions.md, "A lighter process"):
    // a module loaded at start that a request never uses shows here.
    const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
    const residentMb = Number(/^VmRSS:\s+(\d+)/m.exec(status)![1]) / 1024;
    expect(residentMb).toBeLessThan(200);

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });
});
