// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by
// package/source area, idle excluded. Used by `BENCH_PROFILE=1 npm run bench`;
// also on its own: `npx tsx bench/profile.ts <file.cpuprofile> [top]`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = path.resolve(import.meta.dirname, '..');

/** Where a function lives: an npm package, a file of this project, Node itself or a V8 pseudo-frame. */
function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  if (url.startsWith('node:')) return 'node (core)';
  if (url.startsWith('wasm:')) return '(wasm)';
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  return path.relative(ROOT, file);
}

function table(rows: [string, number][], total: number, top: number): string {
  return rows
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => `  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${name}`)
    .join('\n');
}

export function summarizeProfile(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    if (functionName === '(idle)') {
      idle += ms;
      return;
    }
    busy += ms;
    const area = areaOf(url, functionName);
    const name = `${functionName || '(anonymous)'}  ${area}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
  });
  return [
    `CPU profile ${path.relative(process.cwd(), file)}: ${busy.toFixed(0)} ms busy, ${idle.toFixed(0)} ms idle`,
    `Self time by package / source file (% of busy):`,
    table([...byArea], busy, top),
    `Top ${top} functions by self time (% of busy):`,
    table([...byFunction], busy, top),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/profile.ts <file.cpuprofile> [top]');
    process.exit(64);
  }
  console.log(summarizeProfile(file, top ? Number(top) : undefined));
}
