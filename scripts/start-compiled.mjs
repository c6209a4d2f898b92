// npm run start:prod / worker:prod: the compiled service (dist/, from npm run
// build) in this process, after checking that dist/ was built from the sources
// as they are now; otherwise it refuses, saying to run npm run build.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { DIST, staleReason } from './source-stamp.mjs';

const entry = process.argv[2] ?? 'main.js';
const stale = staleReason();
if (stale) {
  console.error(`${stale}: run npm run build first (npm start runs the sources as they are)`);
  process.exit(78);
}
await import(pathToFileURL(path.join(DIST, entry)).href);
