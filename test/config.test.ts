// Settings from the environment: documented defaults, and a bad value stops the
// service with a message naming the variable (not a stack trace).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const KEY32 = Buffer.alloc(32, 1).toString('base64');

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

describe('parseConfig defaults', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = parseConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    // Unset is not development: see 'local conveniences' below for what it relaxes, and when.
    expect(config.nodeEnv).toBeUndefined();
    expect(config.isProduction).toBe(false);
    expect(config.trustProxy).toEqual(['loopback']);
    expect(config.rateLimit).toEqual({ max: 600, windowSeconds: 60 });
    // No DATABASE_URL: the embedded PostgreSQL under .data/.
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toBe(path.resolve('.data'));
    expect(config.redisUrl).toBeUndefined();
    expect(config.tls).toBeUndefined();
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
  });

  it('has the webhook and worker defaults of docs/decisions.md', () => {
    const config = parseConfig({});
    expect(config.webhooks).toEqual({
      secretKey: undefined,
      previousSecretKeys: [],
      secretRotationGraceSeconds: 86_400,
      timeoutMs: 5000,
      retryBaseMs: 60_000,
      disableAfterFailures: 5,
      deliveryRetentionDays: 30,
    });
    expect(config.eventRetentionDays).toBe(30);
    expect(config.worker).toEqual({ enabled: true, concurrency: 20, pollIntervalMs: 1000, recoverIntervalMs: 30_000 });
    const key = Buffer.alloc(32, 5);
    const off = parseConfig({ WORKER: 'off', WEBHOOK_SECRET_KEY: key.toString('base64') });
    expect(off.worker.enabled).toBe(false);
    expect(off.webhooks.secretKey).toEqual({ id: expect.stringMatching(/^[0-9a-f]{12}$/), key });
  });

  it('reads master keys with or without an id, and the previous ones', () => {
    const [current, old, older] = [5, 6, 7].map((byte) => Buffer.alloc(32, byte));
    const config = parseConfig({
      WEBHOOK_SECRET_KEY: `2026-03:${current!.toString('base64')}`,
      WEBHOOK_SECRET_PREVIOUS_KEYS: `2025-09:${old!.toString('base64')}, ${older!.toString('base64')}`,
      WEBHOOK_SECRET_ROTATION_GRACE_S: '0',
    });
    expect(config.webhooks.secretKey).toEqual({ id: '2026-03', key: current });
    expect(config.webhooks.previousSecretKeys).toEqual([
      { id: '2025-09', key: old },
      { id: parseConfig({ WEBHOOK_SECRET_KEY: older!.toString('base64') }).webhooks.secretKey!.id, key: older },
    ]);
    expect(config.webhooks.secretRotationGraceSeconds).toBe(0);
  });

  it('generates the master key only where every process shares one DATA_DIR or a developer says so', () => {
    const database = { DATABASE_URL: 'postgresql://db.internal/platform' };
    // Processes on two hosts would each generate a key and could not read each other's secrets.
    expect(configError(database).message).toMatch(/WEBHOOK_SECRET_KEY is required with DATABASE_URL/);
    expect(parseConfig({}).webhooks.secretKey).toBeUndefined();
    expect(parseConfig({ ...database, NODE_ENV: 'development' }).webhooks.secretKey).toBeUndefined();
    expect(parseConfig({ ...database, NODE_ENV: 'test' }).webhooks.secretKey).toBeUndefined();
    const key = Buffer.alloc(32, 5).toString('base64');
    expect(parseConfig({ ...database, WEBHOOK_SECRET_KEY: key }).webhooks.secretKey?.key).toEqual(Buffer.alloc(32, 5));
  });

  it("hashes passwords at OWASP's scrypt cost unless told otherwise", () => {
    expect(parseConfig({}).passwordScryptN).toBe(2 ** 17);
    expect(parseConfig({ PASSWORD_SCRYPT_N: '16384' }).passwordScryptN).toBe(16384);
  });

  it('ends idle sign-in sessions after 30 minutes unless SESSION_IDLE_TIMEOUT_S says otherwise', () => {
    expect(parseConfig({}).oauth.sessionIdleTimeoutSeconds).toBe(1800);
    expect(parseConfig({ SESSION_IDLE_TIMEOUT_S: '600' }).oauth.sessionIdleTimeoutSeconds).toBe(600);
  });

  it('treats blank optional values as unset', () => {
    const config = parseConfig({ DATABASE_URL: '  ', REDIS_URL: '', PUBLIC_URL: '' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
  });

  it('reads the values it is given', () => {
    const config = parseConfig({
      NODE_ENV: 'production',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
      HOST: '0.0.0.0',
      PORT: '8080',
      DATABASE_URL: 'postgresql://app:secret@db.internal:5432/platform',
      REDIS_URL: 'redis://cache:6379',
      RATE_LIMIT_MAX: '100',
      RATE_LIMIT_WINDOW_S: '10',
    });
    expect(config).toMatchObject({
      nodeEnv: 'production',
      isProduction: true,
      host: '0.0.0.0',
      port: 8080,
      databaseUrl: 'postgresql://app:secret@db.internal:5432/platform',
      redisUrl: 'redis://cache:6379',
      rateLimit: { max: 100, windowSeconds: 10 },
    });
    // Links never point at 0.0.0.0.
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('takes DATABASE_DIRECT_URL beside DATABASE_URL (PgBouncer), never alone or as another scheme', () => {
    const pooled = 'postgresql://app:secret@pgbouncer.internal:6432/platform';
    const direct = 'postgresql://app:secret@db.internal:5432/platform';
    const env = { NODE_ENV: 'test', DATABASE_URL: pooled };
    expect(parseConfig(env).databaseDirectUrl).toBeUndefined();
    expect(parseConfig({ ...env, DATABASE_DIRECT_URL: ` ${direct} ` }).databaseDirectUrl).toBe(direct);
    expect(configError({ ...env, DATABASE_DIRECT_URL: 'mysql://db.internal/platform' }).message).toMatch(
      /DATABASE_DIRECT_URL: must be a postgresql:\/\/ URL/,
    );
    expect(configError({ NODE_ENV: 'test', DATABASE_DIRECT_URL: direct }).message).toMatch(
      /DATABASE_DIRECT_URL needs DATABASE_URL/,
    );
  });

  it('uses PUBLIC_URL without a trailing slash, and https with TLS files', () => {
    expect(parseConfig({ PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe('https://api.example.com');
    const tls = parseConfig({ TLS_CERT_FILE: '/etc/tls/cert.pem', TLS_KEY_FILE: '/etc/tls/key.pem', PORT: '8443' });
    expect(tls.tls).toEqual({ certFile: '/etc/tls/cert.pem', keyFile: '/etc/tls/key.pem' });
    expect(tls.publicUrl).toBe('https://127.0.0.1:8443');
  });
});

describe('local conveniences (the relaxed policies of a developer machine)', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  const databaseUrl = 'postgresql://app@db.internal:5432/platform';
  const embeddedOnLoopback = /^NODE_ENV is unset, the database is the embedded PostgreSQL and HOST .+ is loopback$/;

  it.each([
    ['NODE_ENV unset, embedded PostgreSQL, default HOST (npm start)', {}, embeddedOnLoopback],
    ['NODE_ENV blank, embedded, HOST ::1', { NODE_ENV: '', HOST: '::1' }, embeddedOnLoopback],
    ['NODE_ENV unset, embedded, HOST localhost', { HOST: 'localhost' }, embeddedOnLoopback],
    ['NODE_ENV unset, embedded, HOST 127.0.0.2', { HOST: '127.0.0.2' }, embeddedOnLoopback],
    [
      'NODE_ENV=development on a DATABASE_URL, HOST 0.0.0.0',
      { NODE_ENV: 'development', DATABASE_URL: databaseUrl, HOST: '0.0.0.0' },
      /^NODE_ENV=development$/,
    ],
    ['NODE_ENV=test on a DATABASE_URL', { NODE_ENV: 'test', DATABASE_URL: databaseUrl }, /^NODE_ENV=test$/],
  ])('are on with %s, saying why', (_case, env, reason) => {
    const config = parseConfig(env);
    expect(config.localConveniences?.reason).toMatch(reason);
  });

  it.each([
    ['NODE_ENV unset on a DATABASE_URL', { DATABASE_URL: databaseUrl, WEBHOOK_SECRET_KEY: key }],
    [
      'NODE_ENV unset on a DATABASE_URL, HOST loopback',
      { DATABASE_URL: databaseUrl, HOST: '127.0.0.1', WEBHOOK_SECRET_KEY: key },
    ],
    ['NODE_ENV unset, embedded, HOST 0.0.0.0', { HOST: '0.0.0.0' }],
    ['NODE_ENV unset, embedded, HOST ::', { HOST: '::' }],
    ['NODE_ENV unset, embedded, HOST a LAN address', { HOST: '192.168.1.20' }],
    ['NODE_ENV=production, even embedded on loopback', { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: key }],
  ])('are off with %s', (_case, env) => {
    expect(parseConfig(env).localConveniences).toBeNull();
  });
});

describe('TRUST_PROXY', () => {
  it("takes what Express's trust proxy takes: hops, false, or addresses, subnets and their names", () => {
    expect(parseConfig({}).trustProxy).toEqual(['loopback']);
    expect(parseConfig({ TRUST_PROXY: ' ' }).trustProxy).toEqual(['loopback']);
    expect(parseConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(parseConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8 ,fd00::/8,192.0.2.1,uniquelocal' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.1',
      'uniquelocal',
    ]);
  });
});

describe('parseConfig rejects invalid values, naming the variable', () => {
  const cases: [string, NodeJS.ProcessEnv, string][] = [
    ['a PORT that is not a number', { PORT: 'abc' }, 'PORT'],
    ['a PORT out of range', { PORT: '70000' }, 'PORT'],
    ['a negative PORT', { PORT: '-1' }, 'PORT'],
    ['a fractional PORT', { PORT: '80.5' }, 'PORT'],
    ['a zero RATE_LIMIT_MAX', { RATE_LIMIT_MAX: '0' }, 'RATE_LIMIT_MAX'],
    ['a non-numeric RATE_LIMIT_WINDOW_S', { RATE_LIMIT_WINDOW_S: 'soon' }, 'RATE_LIMIT_WINDOW_S'],
    ['a DATABASE_URL that is not PostgreSQL', { DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    ['a REDIS_URL that is not Redis', { REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    ['an unknown NODE_ENV', { NODE_ENV: 'staging' }, 'NODE_ENV'],
    ['a PUBLIC_URL that is not a URL', { PUBLIC_URL: 'api.example.com' }, 'PUBLIC_URL'],
    ['an unknown LOG_LEVEL', { LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    ['only TLS_CERT_FILE', { TLS_CERT_FILE: '/etc/tls/cert.pem' }, 'TLS_CERT_FILE'],
    ['only TLS_KEY_FILE', { TLS_KEY_FILE: '/etc/tls/key.pem' }, 'TLS_KEY_FILE'],
    ['production without WEBHOOK_SECRET_KEY', { NODE_ENV: 'production' }, 'WEBHOOK_SECRET_KEY'],
    ['TRUST_PROXY=true (any client could claim any address)', { TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    ['a TRUST_PROXY hop count over 10', { TRUST_PROXY: '11' }, 'TRUST_PROXY'],
    ['a TRUST_PROXY host name', { TRUST_PROXY: 'loopback, proxy.internal' }, 'TRUST_PROXY'],
    ['a TRUST_PROXY prefix too long', { TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    ['an empty TRUST_PROXY entry', { TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, 'TRUST_PROXY'],
    [
      'a WEBHOOK_SECRET_KEY of 16 bytes',
      { WEBHOOK_SECRET_KEY: Buffer.alloc(16).toString('base64') },
      'WEBHOOK_SECRET_KEY',
    ],
    ['a WEBHOOK_SECRET_KEY whose id has a dot', { WEBHOOK_SECRET_KEY: `a.b:${KEY32}` }, 'WEBHOOK_SECRET_KEY'],
    [
      'a WEBHOOK_SECRET_PREVIOUS_KEYS entry of 16 bytes',
      { WEBHOOK_SECRET_PREVIOUS_KEYS: `${KEY32},${Buffer.alloc(16).toString('base64')}` },
      'WEBHOOK_SECRET_PREVIOUS_KEYS',
    ],
    [
      'a previous key with the id of the current one',
      {
        WEBHOOK_SECRET_KEY: `k1:${KEY32}`,
        WEBHOOK_SECRET_PREVIOUS_KEYS: `k1:${Buffer.alloc(32, 2).toString('base64')}`,
      },
      'WEBHOOK_SECRET_PREVIOUS_KEYS',
    ],
    [
      'a negative WEBHOOK_SECRET_ROTATION_GRACE_S',
      { WEBHOOK_SECRET_ROTATION_GRACE_S: '-1' },
      'WEBHOOK_SECRET_ROTATION_GRACE_S',
    ],
    ['a WEBHOOK_TIMEOUT_MS of 0', { WEBHOOK_TIMEOUT_MS: '0' }, 'WEBHOOK_TIMEOUT_MS'],
    ['an unknown WORKER', { WORKER: 'maybe' }, 'WORKER'],
    ['a PASSWORD_SCRYPT_N below 2^14', { PASSWORD_SCRYPT_N: '8192' }, 'PASSWORD_SCRYPT_N'],
    ['a PASSWORD_SCRYPT_N that is not a power of two', { PASSWORD_SCRYPT_N: '100000' }, 'PASSWORD_SCRYPT_N'],
    ['a SESSION_IDLE_TIMEOUT_S under 2 minutes', { SESSION_IDLE_TIMEOUT_S: '60' }, 'SESSION_IDLE_TIMEOUT_S'],
    [
      'a SESSION_IDLE_TIMEOUT_S beyond the 12-hour session',
      { SESSION_IDLE_TIMEOUT_S: '50000' },
      'SESSION_IDLE_TIMEOUT_S',
    ],
  ];

  it.each(cases)('%s', (_title, env, variable) => {
    const error = configError(env);
    expect(error.message).toContain(variable);
    // Other, valid settings are not blamed.
    for (const other of ['PORT', 'RATE_LIMIT_MAX', 'DATABASE_URL', 'NODE_ENV']) {
      if (other !== variable) expect(error.message).not.toMatch(new RegExp(`\\b${other}\\b`));
    }
  });

  it('names every invalid variable at once', () => {
    const error = configError({ PORT: 'abc', RATE_LIMIT_MAX: '0', NODE_ENV: 'staging' });
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('RATE_LIMIT_MAX');
    expect(error.message).toContain('NODE_ENV');
  });

  it('does not echo the DATABASE_URL it rejects (it may hold a password)', () => {
    const error = configError({ DATABASE_URL: 'mysql://app:hunter2@db/platform' });
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).not.toContain('hunter2');
  });
});

describe('starting the service with a bad setting', () => {
  it('exits non-zero at once, naming PORT on stderr, without a stack trace', async () => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? ROOT, PORT: 'abc' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal })),
    );
    clearTimeout(timer);

    expect(signal).toBeNull();
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(stderr).toMatch(/\bPORT\b/);
    expect(stderr).not.toMatch(/^\s+at\s/m);
    expect(stderr).not.toMatch(/ConfigError|ZodError/);
    // It stopped before touching a database or printing a banner.
    expect(stdout).not.toContain('Created a demo organization');
    expect(stdout).not.toContain('embedded PostgreSQL started');
  }, 30_000);
});
