import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Import boundaries (ARCHITECTURE.md): what each part of src/ must not import.
// Type-only imports count too. test/boundaries.test.ts proves each one fires.
const BOUNDARIES = [
  {
    from: 'graphql',
    forbid: ['rest/', 'http/', 'oauth/', 'cli/', 'server', 'main'],
    why: 'the GraphQL layer holds the business logic and knows no transport, CLI or process wiring',
  },
  {
    from: 'http',
    forbid: ['rest/', 'oauth/'],
    why: 'the HTTP plumbing is shared by every transport and depends on none of them',
  },
  { from: 'rest', forbid: ['db/', 'generated/'], why: 'REST reaches data only through the services' },
  { from: 'oauth', forbid: ['db/', 'generated/'], why: 'OAuth reaches data only through the services' },
  { from: 'db', forbid: ['graphql/', 'rest/', 'http/'], why: 'the database layer knows no schema and no transport' },
  { from: 'events', forbid: ['jobs/'], why: 'the event domain knows nothing of the worker runtime that delivers it' },
];

// The code imports by relative path, so whether `../../rest/app.js` reaches
// src/rest depends on how deep the importing file sits: one rule per depth
// matches exactly the `../` that lead back to src/ (or one more and down through
// src/), so `./rest/x.js` or `../rest/x.js` from src/graphql/crm/ stay legal.
// no-restricted-imports sees import and export declarations (type-only ones
// included); no-restricted-syntax adds import() and the type `import('...').T`.
const MAX_DEPTH = 8;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The regex of imports from a file `depth` directories below src/ into src/<target>. */
function importsOf(target, depth) {
  const toSrc = `(?:(?:\\.\\./){${depth}}|(?:\\.\\./){${depth + 1}}src/)`;
  const rest = target.endsWith('/')
    ? `${escape(target.slice(0, -1))}(?:/.*)?` // a directory: itself or anything in it
    : `${escape(target)}(?:\\.[cm]?[jt]s)?`; // a module: with or without its extension
  return `^${toSrc}${rest}$`;
}

const boundaries = BOUNDARIES.flatMap(({ from, forbid, why }) =>
  Array.from({ length: MAX_DEPTH }, (_, i) => {
    const restrictions = forbid.map((target) => ({
      regex: importsOf(target, i + 1),
      message: `src/${from} must not import src/${target.endsWith('/') ? `${target}**` : `${target}.ts`}: ${why}.`,
    }));
    return {
      name: `boundaries/${from}/depth-${i + 1}`,
      files: [`src/${from}/${'*/'.repeat(i)}*.ts`],
      rules: {
        'no-restricted-imports': ['error', { patterns: restrictions }],
        'no-restricted-syntax': [
          'error',
          ...restrictions.map(({ regex, message }) => ({
            selector: `:matches(ImportExpression, TSImportType) Literal[value=/${regex.replaceAll('/', '\\/')}/]`,
            message,
          })),
        ],
      },
    };
  }),
);

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.build', '.build.*', 'src/generated', '.data', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  ...boundaries,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        fetch: 'readonly',
      },
    },
  },
);
