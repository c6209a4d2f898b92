// The import boundaries of eslint.config.js, proven with ESLint's own API: each
// fires on a deliberate violation (from every depth that matters, for type-only,
// re-exporting and dynamic imports), stays quiet on the imports that are
// allowed, and the real src/ tree keeps to them.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });
const BOUNDARY_RULES = ['no-restricted-imports', 'no-restricted-syntax'];

/** What the boundary rules say about `code` if it were the file at `filePath`. */
async function boundaryMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result!.messages.filter((m) => BOUNDARY_RULES.includes(m.ruleId ?? '')).map((m) => m.message);
}

/** [importing file, code, the boundary its message names]. */
const VIOLATIONS: [string, string, string][] = [
  // The GraphQL layer knows no transport, CLI or process wiring.
  ['src/graphql/crm/x.ts', "import '../../rest/app.js';", 'src/graphql must not import src/rest/**'],
  ['src/graphql/x.ts', "import { sendError } from '../http/errors.js';", 'src/graphql must not import src/http/**'],
  [
    'src/graphql/crm/contact/x.ts',
    "import type { OAuthServer } from '../../../oauth/server.js';",
    'src/graphql must not import src/oauth/**',
  ],
  ['src/graphql/kit/x.ts', "export { run } from '../../cli/main.js';", 'src/graphql must not import src/cli/**'],
  [
    'src/graphql/system/api-key/x.ts',
    "import { createPlatform } from '../../../server.js';",
    'src/graphql must not import src/server.ts',
  ],
  ['src/graphql/x.ts', "import '../main.js';", 'src/graphql must not import src/main.ts'],
  ['src/graphql/x.ts', "export * from '../server';", 'src/graphql must not import src/server.ts'],
  [
    'src/graphql/crm/x.ts',
    "export const app = await import('../../rest/app.js');",
    'src/graphql must not import src/rest/**',
  ],
  ['src/graphql/crm/x.ts', "import '../../../src/http/errors.js';", 'src/graphql must not import src/http/**'],
  // Shared HTTP plumbing depends on no transport.
  ['src/http/x.ts', "import { createRestRouter } from '../rest/app.js';", 'src/http must not import src/rest/**'],
  ['src/http/x.ts', "import type { Grant } from '../oauth/grants.js';", 'src/http must not import src/oauth/**'],
  // REST and OAuth reach data only through the services; type-only imports count.
  ['src/rest/x.ts', "import type { PrismaClient } from '../db/prisma.js';", 'src/rest must not import src/db/**'],
  [
    'src/rest/x.ts',
    "import { Prisma } from '../generated/prisma/client.js';",
    'src/rest must not import src/generated/**',
  ],
  ['src/rest/v2/x.ts', "import '../../db/prisma.js';", 'src/rest must not import src/db/**'],
  [
    'src/rest/x.ts',
    "export type Client = import('../db/prisma.js').PrismaClient;",
    'src/rest must not import src/db/**',
  ],
  ['src/oauth/x.ts', "import { connectDatabase } from '../db/prisma.js';", 'src/oauth must not import src/db/**'],
  [
    'src/oauth/grants/x.ts',
    "import type { ApiKey } from '../../generated/prisma/client.js';",
    'src/oauth must not import src/generated/**',
  ],
  // The database layer knows no schema and no transport.
  ['src/db/x.ts', "import { getSchema } from '../graphql/schema.js';", 'src/db must not import src/graphql/**'],
  ['src/db/x.ts', "import '../rest/app.js';", 'src/db must not import src/rest/**'],
  ['src/db/x.ts', "import type { Answer } from '../http/idempotency.js';", 'src/db must not import src/http/**'],
  // The event domain (types, insert, envelope) knows nothing of the worker that delivers events.
  [
    'src/events/x.ts',
    "import { DELIVER_WEBHOOK } from '../jobs/delivery-jobs.js';",
    'src/events must not import src/jobs/**',
  ],
];

/** [importing file, code]: imports across the boundaries' neighbours that are allowed. */
const ALLOWED: [string, string][] = [
  [
    'src/graphql/crm/x.ts',
    "import '../../errors.js'; import '../kit/fields.js'; import type { PrismaClient } from '../../db/prisma.js';",
  ],
  ['src/graphql/crm/x.ts', "import '../../auth/scopes.js'; import '../../events/emit.js';"],
  // Folders of the same names elsewhere, and src/db/server.ts, are not the forbidden ones.
  ['src/graphql/crm/x.ts', "import './rest/x.js'; import '../rest/x.js'; import '../http.js';"],
  ['src/graphql/x.ts', "import '../db/server.js'; import './server.js';"],
  ['src/http/x.ts', "import '../graphql/context.js'; import type { PrismaClient } from '../db/prisma.js';"],
  ['src/rest/x.ts', "import '../graphql/modules.js'; import '../http/errors.js'; import '../auth/scopes.js';"],
  ['src/oauth/x.ts', "import '../graphql/modules.js'; import '../http/errors.js';"],
  ['src/db/x.ts', "import '../generated/prisma/client.js'; import '../config.js';"],
  // The composition root and the tests may import anything.
  ['src/server.ts', "import './rest/app.js'; import './db/prisma.js';"],
  ['test/x.test.ts', "import '../src/db/prisma.js'; import '../src/rest/app.js';"],
];

describe('each boundary', () => {
  it.each(VIOLATIONS)('fires in %s on %s', async (file, code, boundary) => {
    const messages = await boundaryMessages(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(boundary);
  });

  it.each(ALLOWED)('stays quiet in %s on %s', async (file, code) => {
    expect(await boundaryMessages(file, code)).toEqual([]);
  });
});

/** Every .ts file under src/<dir>, at any depth. */
async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, 'src', dir), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the src/ tree', () => {
  it('puts every file of a bounded directory under its rule, however deep', async () => {
    const files = (await Promise.all(['graphql', 'http', 'rest', 'oauth', 'db', 'events'].map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const config = await eslint.calculateConfigForFile(file);
      const [severity, options] = config.rules['no-restricted-imports'] ?? [];
      expect(severity, path.relative(ROOT, file)).toBe(2);
      expect(options.patterns.length, path.relative(ROOT, file)).toBeGreaterThan(0);
    }
  });

  it('keeps to the boundaries', async () => {
    const results = await eslint.lintFiles(['src']);
    const violations = results.flatMap((result) =>
      result.messages
        .filter((m) => BOUNDARY_RULES.includes(m.ruleId ?? ''))
        .map((m) => `${path.relative(ROOT, result.filePath)}:${m.line} ${m.message}`),
    );
    expect(violations).toEqual([]);
    expect(results.length).toBeGreaterThan(50);
  }, 60_000);
});
