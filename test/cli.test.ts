// The operator CLI, run as a child process the way an operator runs it, against
// a database of its own and, for keys, a real server on the same database.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useServer } from './support/fixtures.js';
import { freePort } from './support/free-port.js';

// Each test starts one or more CLI processes (Node, tsx, the schema's modules, a
// migration check: 2-5 s each), beside the other files' tests on a 2-core machine.
vi.setConfig({ testTimeout: 90_000 });

const ROOT = path.resolve(import.meta.dirname, '..');

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The environment of the test process without anything that picks a database. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'EMBEDDED_PG_PORT', 'LOG_LEVEL', 'NODE_OPTIONS']) delete env[name];
  return { ...env, ...extra };
}

/** The error document of a --json failure: stdout stays empty, stderr is one JSON document. */
function jsonError(result: CliResult) {
  expect(result.stdout).toBe('');
  const parsed = JSON.parse(result.stderr) as { error: { code: string; message: string; field?: string } };
  expect(Object.keys(parsed)).toEqual(['error']);
  return parsed.error;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY_MS = 86_400_000;

describe.concurrent('usage', () => {
  const cli = (...args: string[]) => run(args, baseEnv({}));

  it.each([[[]], [['help']], [['--help']], [['-h']], [['api-key', 'create', '--help']]])(
    'prints the usage on stdout and exits 0 for %j',
    async (args) => {
      const result = await cli(...args);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('Usage:');
      for (const command of ['org create', 'api-key create', 'api-key list', 'api-key revoke', 'api-key rotate']) {
        expect(result.stdout).toContain(command);
      }
    },
  );

  it('rejects an unknown command with the usage on stderr and exit 2', async () => {
    const result = await cli('frobnicate');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: unknown command 'frobnicate'/);
    expect(result.stderr).toContain('Usage:');
  });

  it('reports an unknown command as a JSON error with --json', async () => {
    const result = await cli('api-key', 'frobnicate', '--json');
    expect(result.code).toBe(2);
    expect(jsonError(result)).toMatchObject({ code: 'USAGE_ERROR', message: expect.stringContaining('frobnicate') });
  });

  it('rejects an option the command does not take, naming it', async () => {
    const unknown = await cli('api-key', 'list', '--org', 'org_x', '--colour', 'red', '--json');
    expect(unknown.code).toBe(2);
    expect(jsonError(unknown)).toMatchObject({ code: 'USAGE_ERROR', field: '--colour' });

    const foreign = await cli('api-key', 'revoke', '--id', 'key_x', '--org', 'org_x');
    expect(foreign.code).toBe(2);
    expect(foreign.stdout).toBe('');
    expect(foreign.stderr).toMatch(/^error: .*--org/);
  });

  it('fails on a flag without its value before touching any database', async () => {
    const result = await run(
      ['api-key', 'list', '--org', '--json'],
      baseEnv({ DATABASE_URL: 'postgresql://x@127.0.0.1:1/x' }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--org');
  });
});

describe('with DATABASE_URL and a running server', () => {
  // The CLI works on the server's own database.
  const server = useServer();
  let organizationId: string;
  const adminEmail = `owner-${randomBytes(4).toString('hex')}@example.test`;
  const cli = (...args: string[]) => run(args, baseEnv({ DATABASE_URL: server.databaseUrl }));

  it('org create --with-key also prints a first admin key, made by the admin, that works at once', async () => {
    const email = `first-${randomBytes(4).toString('hex')}@example.test`;
    const result = await cli(
      'org',
      'create',
      '--name',
      'First Key Ltd',
      '--admin-email',
      email,
      '--admin-password',
      'correct horse battery',
      '--with-key',
      '--json',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.apiKey).toMatchObject({
      key: expect.stringMatching(/^bpk_/),
      secret: expect.stringMatching(/^bps_/),
      scopes: ['admin'],
    });
    const users = await server.rest('GET', '/v1/users', { key: body.apiKey.key });
    expect(users.status).toBe(200);
    expect(users.body.data.map((user: { email: string }) => user.email)).toEqual([email]);
    const stored = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: body.apiKey.id } });
    expect(stored.createdByUserId).toBe(body.user.id);
  });

  it('org create --json prints one JSON document: the organization and its admin', async () => {
    const result = await cli(
      'org',
      'create',
      '--name',
      'Acme Ltd',
      '--admin-email',
      adminEmail.toUpperCase(),
      '--admin-password',
      'correct horse battery',
      '--json',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toEqual({
      organization: { id: expect.stringMatching(/^org_/), name: 'Acme Ltd' },
      user: { id: expect.stringMatching(/^usr_/), email: adminEmail },
    });
    organizationId = body.organization.id;
    const stored = await server.prisma.user.findUniqueOrThrow({ where: { id: body.user.id } });
    expect(stored).toMatchObject({ organizationId, role: 'admin', email: adminEmail });
  });

  let key: string;
  let keyId: string;

  it('api-key create --json shows the key and secret once, with their scopes and expiry', async () => {
    const before = Date.now();
    const result = await cli(
      'api-key',
      'create',
      '--org',
      organizationId,
      '--name',
      'integration',
      '--scopes',
      'crm:read crm:write',
      '--expires-in-days',
      '30',
      '--json',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'integration',
      key: expect.stringMatching(/^bpk_[0-9A-Za-z]+$/),
      secret: expect.stringMatching(/^bps_[0-9A-Za-z]+$/),
      prefix: expect.stringMatching(/^bpk_./),
      scopes: ['crm:read', 'crm:write'],
      expiresAt: expect.stringMatching(ISO),
      createdAt: expect.stringMatching(ISO),
    });
    expect(body.key.startsWith(body.prefix)).toBe(true);
    expect(body.prefix.length).toBeLessThan(body.key.length);
    const expires = Date.parse(body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    key = body.key;
    keyId = body.id;
  });

  it('creates keys that do not expire without --expires-in-days, accepting comma-separated scopes', async () => {
    const result = await cli(
      'api-key',
      'create',
      '--org',
      organizationId,
      '--name',
      'forever',
      '--scopes',
      'hr:read,crm:read',
      '--json',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ expiresAt: null, scopes: ['hr:read', 'crm:read'] });
  });

  it('the created key works against the running server', async () => {
    const res = await server.rest('GET', '/v1/crm/contacts', { key });
    expect(res.status).toBe(200);
  });

  it('api-key list --json shows the keys without any key, secret or hash', async () => {
    const result = await cli('api-key', 'list', '--org', organizationId, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((item: { name: string }) => item.name)).toEqual(['integration', 'forever']);
    for (const item of body.data) {
      expect(Object.keys(item).sort()).toEqual(
        [
          'createdAt',
          'createdByUserId',
          'expiresAt',
          'id',
          'lastUsedAt',
          'name',
          'prefix',
          'replacedById',
          'revokedAt',
          'scopes',
        ].sort(),
      );
    }
    // The CLI's keys are the operator's: no creator.
    expect(body.data[0]).toMatchObject({
      id: keyId,
      revokedAt: null,
      scopes: ['crm:read', 'crm:write'],
      createdByUserId: null,
    });
    expect(key.startsWith(body.data[0].prefix)).toBe(true);
    expect(result.stdout).not.toContain(key);
    expect(result.stdout).not.toMatch(/bps_|scrypt|keyHash|secretHash/);
  });

  it('api-key revoke takes effect at once in the running server', async () => {
    // The server has the key cached from the request above: only the NOTIFY can drop it.
    expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);
    const result = await cli('api-key', 'revoke', '--id', keyId, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({ id: keyId, name: 'integration', revokedAt: expect.stringMatching(ISO) });
    expect(body).not.toHaveProperty('key');

    const res = await server.rest('GET', '/v1/crm/contacts', { key });
    expect(res.status).toBe(401);

    const list = JSON.parse((await cli('api-key', 'list', '--org', organizationId, '--json')).stdout);
    expect(list.data[0].revokedAt).toBe(body.revokedAt);
  });

  it('api-key rotate replaces a key: the new one works at once, the old one is refused at once', async () => {
    const created = JSON.parse(
      (
        await cli(
          'api-key',
          'create',
          '--org',
          organizationId,
          '--name',
          'rotating',
          '--scopes',
          'crm:read',
          '--expires-in-days',
          '10',
          '--json',
        )
      ).stdout,
    );
    expect((await server.rest('GET', '/v1/crm/contacts', { key: created.key })).status).toBe(200);

    const result = await cli('api-key', 'rotate', '--id', created.id, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rotated = JSON.parse(result.stdout);
    expect(rotated).toMatchObject({
      id: expect.stringMatching(/^key_/),
      name: 'rotating',
      scopes: ['crm:read'],
      expiresAt: created.expiresAt,
      replaces: created.id,
      key: expect.stringMatching(/^bpk_/),
      secret: expect.stringMatching(/^bps_/),
    });
    expect(rotated.id).not.toBe(created.id);
    expect(rotated.key).not.toBe(created.key);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: created.key })).status).toBe(401);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: rotated.key })).status).toBe(200);

    const again = await cli('api-key', 'rotate', '--id', created.id, '--json');
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(JSON.parse(again.stderr).error.code).toBe('CONFLICT');
  });

  it('without --json prints readable text containing the key, which works', async () => {
    const result = await cli(
      'api-key',
      'create',
      '--org',
      organizationId,
      '--name',
      'text key',
      '--scopes',
      'crm:read',
    );
    expect(result.code).toBe(0);
    expect(() => JSON.parse(result.stdout)).toThrow();
    const textKey = /\b(bpk_[0-9A-Za-z]+)/.exec(result.stdout)?.[1];
    expect(textKey).toBeDefined();
    expect(result.stdout).toMatch(/\bbps_[0-9A-Za-z]+/);
    expect(result.stdout).toContain('crm:read');
    expect((await server.rest('GET', '/v1/crm/contacts', { key: textKey })).status).toBe(200);

    const list = await cli('api-key', 'list', '--org', organizationId);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('text key');
    expect(list.stdout).toContain('revoked');
    expect(list.stdout).not.toContain(textKey);
  });

  describe.concurrent('errors', () => {
    it('names a missing flag, exit 2, nothing on stdout', async () => {
      const result = await cli('org', 'create', '--name', 'No Password', '--admin-email', 'np@example.test', '--json');
      expect(result.code).toBe(2);
      expect(jsonError(result)).toEqual({
        code: 'VALIDATION_ERROR',
        message: '--admin-password is required',
        field: '--admin-password',
      });

      const text = await cli('api-key', 'create', '--org', organizationId, '--scopes', 'crm:read');
      expect(text.code).toBe(2);
      expect(text.stdout).toBe('');
      expect(text.stderr).toMatch(/^error: --name is required\n/);
    });

    it('names an unknown scope', async () => {
      const result = await cli(
        'api-key',
        'create',
        '--org',
        organizationId,
        '--name',
        'bad',
        '--scopes',
        'crm:read crm:delete',
        '--json',
      );
      expect(result.code).toBe(2);
      const error = jsonError(result);
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', field: '--scopes' });
      expect(error.message).toContain('crm:delete');
      expect(error.message).not.toContain('crm:read crm:delete');
    });

    it.each(['0', '1.5', 'abc', '-3', '36501', ''])('rejects --expires-in-days=%j', async (days) => {
      const result = await cli(
        'api-key',
        'create',
        '--org',
        organizationId,
        '--name',
        'bad',
        '--scopes',
        'crm:read',
        `--expires-in-days=${days}`,
        '--json',
      );
      expect(result.code).toBe(2);
      expect(jsonError(result)).toMatchObject({
        code: 'VALIDATION_ERROR',
        field: '--expires-in-days',
        message: expect.stringContaining('positive whole number'),
      });
    });

    it('reports an unknown organization clearly, exit 1', async () => {
      const create = await cli('api-key', 'create', '--org', 'org_missing', '--name', 'k', '--scopes', 'crm:read');
      expect(create.code).toBe(1);
      expect(create.stdout).toBe('');
      expect(create.stderr).toBe('error: organization org_missing not found\n');

      const list = await cli('api-key', 'list', '--org', 'org_missing', '--json');
      expect(list.code).toBe(1);
      expect(jsonError(list)).toMatchObject({ code: 'NOT_FOUND', field: '--org' });
    });

    it('reports an unknown key id, exit 1', async () => {
      const result = await cli('api-key', 'revoke', '--id', 'key_missing', '--json');
      expect(result.code).toBe(1);
      expect(jsonError(result)).toEqual({
        code: 'NOT_FOUND',
        message: 'API key key_missing not found',
        field: '--id',
      });
    });

    it('reports a duplicate admin email as a conflict, whatever its case', async () => {
      const args = ['org', 'create', '--name', 'Copycat', '--admin-email', adminEmail.toUpperCase()];
      const result = await cli(...args, '--admin-password', 'another password', '--json');
      expect(result.code).toBe(1);
      expect(jsonError(result)).toMatchObject({ code: 'CONFLICT', field: '--admin-email' });

      const text = await cli(...args, '--admin-password', 'another password');
      expect(text.code).toBe(1);
      expect(text.stdout).toBe('');
      expect(text.stderr).toMatch(/^error: .*already exists\n$/);
      expect(await server.prisma.organization.count({ where: { name: 'Copycat' } })).toBe(0);
    });

    it('shows the validation errors of organization creation, naming the option', async () => {
      const email = await cli(
        'org',
        'create',
        '--name',
        'X',
        '--admin-email',
        'nope',
        '--admin-password',
        'long enough',
      );
      expect(email.code).toBe(2);
      expect(email.stdout).toBe('');
      expect(email.stderr).toMatch(/^error: --admin-email: must be a valid email address\n/);
      expect(email.stderr).not.toMatch(/\n\s+at /);

      const password = await cli(
        'org',
        'create',
        '--name',
        'X',
        '--admin-email',
        'x@example.test',
        '--admin-password',
        'short',
        '--json',
      );
      expect(password.code).toBe(2);
      expect(jsonError(password)).toMatchObject({ code: 'VALIDATION_ERROR', field: '--admin-password' });
    });

    it('reports an unreachable database without a stack trace, exit 1', async () => {
      const result = await run(
        ['api-key', 'list', '--org', organizationId, '--json'],
        baseEnv({ DATABASE_URL: 'postgresql://nobody:hunter2@127.0.0.1:1/none' }),
      );
      expect(result.code).toBe(1);
      const error = jsonError(result);
      expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('127.0.0.1:1') });
      expect(error.message).not.toContain('hunter2');
    });
  });
});

describe('without DATABASE_URL: the embedded PostgreSQL under DATA_DIR', () => {
  let dataDir: string;
  let pgPort: number;
  let httpPort: number;
  let server: ChildProcess | undefined;
  let organizationId: string;
  const env = (extra: Record<string, string> = {}) =>
    baseEnv({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), ...extra });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'bp-cli-test-'));
    await chmod(dataDir, 0o755); // as root, PostgreSQL runs as the postgres user and must enter it
    pgPort = await freePort();
    httpPort = await freePort();
  });
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a DATA_DIR without a database unless --create-database is given, creating nothing', async () => {
    const result = await run(
      ['org', 'create', '--name', 'Lost', '--admin-email', 'lost@example.test', '--admin-password', 'lost password'],
      env(),
    );
    expect(result.code).toBe(78);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: no database under /);
    for (const hint of [dataDir, 'DATA_DIR', 'DATABASE_URL', '--create-database']) {
      expect(result.stderr).toContain(hint);
    }
    expect(await readdir(dataDir)).toEqual([]);
    expect(await listening(pgPort)).toBe(false);

    const json = await run(['api-key', 'list', '--org', 'org_x', '--json'], env());
    expect(json.code).toBe(78);
    expect(jsonError(json)).toMatchObject({
      code: 'CONFIG_ERROR',
      message: expect.stringContaining('--create-database'),
    });
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('starts it on a fresh machine, migrates, runs the command and stops it', { timeout: 120_000 }, async () => {
    const result = await run(
      [
        'org',
        'create',
        '--name',
        'Fresh',
        '--admin-email',
        'fresh@example.test',
        '--admin-password',
        'fresh password',
        '--create-database',
      ],
      env(),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('started the embedded PostgreSQL');
    expect(result.stderr).toContain('applied migrations');
    organizationId = /\b(org_[0-9a-z]+)/.exec(result.stdout)![1]!;
    expect(await listening(pgPort)).toBe(false);
  });

  it('uses the one a running server started, without stopping it', { timeout: 120_000 }, async () => {
    server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: env({ PORT: String(httpPort), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"listening"')) resolve();
      });
      server!.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
    });

    const created = await run(
      ['api-key', 'create', '--org', organizationId, '--name', 'ops', '--scopes', 'crm:read', '--json'],
      env({ LOG_LEVEL: 'debug' }),
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('already running');
    expect(created.stderr).not.toContain('started the embedded PostgreSQL');
    const { key, id } = JSON.parse(created.stdout);
    const get = () =>
      fetch(`http://127.0.0.1:${httpPort}/v1/crm/contacts`, { headers: { authorization: `Bearer ${key}` } });
    expect((await get()).status).toBe(200);

    const revoked = await run(['api-key', 'revoke', '--id', id, '--json'], env());
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toBe('');
    expect((await get()).status).toBe(401);
    expect(await listening(pgPort)).toBe(true);

    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    expect(await listening(pgPort)).toBe(false);
  });
});

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
