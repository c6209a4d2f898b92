// Summarises a V8 .cpuprofile (node --cpu-prof): self time by package / source
// file and by function, idle excluded. Used by `BENCH_PROFILE=1 npm run bench`;
// also on its own: `npx tsx bench/profile.ts <file.cpuprofile> [top]`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  byArea: Map<string, number>;
  byFunction: Map<string, number>;
}

const ROOT = path.resolve(import.meta.dirname, '..');

/** Where a function lives: an npm package, a file of this project, Node itself or a V8 pseudo-frame. */
function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  if (url.startsWith('node:')) return 'node (core)';
  if (url.startsWith('wasm:')) return '(wasm)';
  return path.relative(ROOT, url.startsWith('file://') ? new URL(url).pathname : url);
}

const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);

/** Samples in the first `skipMs` of the profile (e.g. start-up) are left out. */
export function readProfile(file: string, skipMs = 0): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const summary: ProfileSummary = { busyMs: 0, idleMs: 0, byArea: new Map(), byFunction: new Map() };
  let elapsedMs = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    elapsedMs += ms;
    if (elapsedMs < skipMs) return;
    const { functionName, url, lineNumber } = frames.get(id)!;
    if (functionName === '(idle)') {
      summary.idleMs += ms;
      return;
    }
    summary.busyMs += ms;
    const area = areaOf(url, functionName);
    add(summary.byArea, area, ms);
    add(summary.byFunction, `${functionName || '(anonymous)'}  ${area}${url ? `:${lineNumber + 1}` : ''}`, ms);
  });
  return summary;
}

export function formatProfile({ busyMs, byArea, byFunction }: ProfileSummary, top: number): string {
  const table = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, ms]) => `  ${((100 * ms) / busyMs).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${name}`,
      )
      .join('\n');
  return [
    `Self time by package / source file (% of busy):`,
    table(byArea),
    `Top ${top} functions by self time (% of busy):`,
    table(byFunction),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/profile.ts <file.cpuprofile> [top]');
    process.exit(64);
  }
  const summary = readProfile(file);
  console.log(`${summary.busyMs.toFixed(0)} ms busy, ${summary.idleMs.toFixed(0)} ms idle`);
  console.log(formatProfile(summary, top ? Number(top) : 25));
}
