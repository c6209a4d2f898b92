// Runs `prisma generate` offline. Generate never runs the native schema engine,
// but it tries to download one unless PRISMA_SCHEMA_ENGINE_BINARY names an
// existing file (docs/decisions.md, "Operations"); migrations use the WebAssembly engine instead.
import { spawnSync } from 'node:child_process';
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
process.exit(result.status ?? 1);
