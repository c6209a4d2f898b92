// Runs `prisma generate` offline. Generate never runs the native schema engine,
// but it tries to download one unless PRISMA_SCHEMA_ENGINE_BINARY names an
// existing file (docs/decisions.md, "Operations"); migrations use the WebAssembly engine instead.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync('npx', ['--no-install', 'prisma', 'generate'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    PRISMA_SCHEMA_ENGINE_BINARY: fileURLToPath(import.meta.url),
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
    ...process.env,
  },
});
if (result.status === 0) readQueryCompilerAsFile();
process.exit(result.status ?? 1);

/**
 * The generated client imports its query compiler as a module holding the
 * WebAssembly in base64 (4.5 MB): the module's source and its string then stay in
 * the heap for the whole run (9 MB), though they are read once. Read as a file
 * instead, both are garbage once compiled (docs/decisions.md, "A lighter process").
 * The file is what the import would have loaded; a text of another shape falls back
 * to the import. Another client version generating other code is left as it is.
 */
function readQueryCompilerAsFile() {
  const file = fileURLToPath(new URL('../src/generated/prisma/internal/class.ts', import.meta.url));
  const generated = readFileSync(file, 'utf8');
  const importing = /( *)const \{ wasm \} = await import\(("@prisma\/client\/runtime\/[\w.-]+\.wasm-base64\.mjs")\)\n/;
  const match = importing.exec(generated);
  if (!match) {
    console.warn('prisma-generate: the query compiler is loaded as generated (its import was not found)');
    return;
  }
  const [line, indent, specifier] = match;
  const reading = [
    `// Read as a file, not imported: see readQueryCompilerAsFile in scripts/prisma-generate.mjs.`,
    `const { readFile } = await import('node:fs/promises')`,
    `const { createRequire } = await import('node:module')`,
    `const text = await readFile(createRequire(import.meta.url).resolve(${specifier}), 'utf8')`,
    `const wasm = /^const wasm = "([A-Za-z0-9+/=]+)"/.exec(text)?.[1] ?? (await import(${specifier})).wasm`,
  ];
  writeFileSync(file, generated.replace(line, reading.map((code) => `${indent}${code}\n`).join('')));
}
