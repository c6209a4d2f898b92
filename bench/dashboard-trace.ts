// Where a full load of a dashboard list spends the renderer's main thread, read
// from Chromium's own timeline over CDP (as the Performance panel records it):
// the main thread's time by kind of work (parsing HTML, compiling and running
// the script, style, layout, paint, garbage collection), each counted without
// the work nested in it, and the script's functions by their own sampled time.
// Used by bench/dashboard.ts with BENCH_TRACE=1, once per list after the timings.
import type { Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Trace {
  /** Main-thread time (ms) by trace event, without the events nested in each; largest first. */
  mainThread: [string, number][];
  /** The script's functions by their own sampled time (ms); largest first. */
  functions: [string, number][];
}

const CATEGORIES = ['devtools.timeline', 'v8', 'v8.execute', 'disabled-by-default-devtools.timeline', 'blink'];

/** Records the timeline and a CPU profile around `load` (which navigates and waits for the page). */
export async function traceLoad(page: Page, load: () => Promise<unknown>): Promise<Trace> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  // The profiler first: its start-up is then not in the timeline.
  await cdp.send('Profiler.start');
  await cdp.send('Tracing.start', { categories: CATEGORIES.join(','), transferMode: 'ReportEvents' });
  await load();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  return { mainThread: mainThreadTime(events), functions: selfTimes(profile) };
}

/** Self time by event name on the renderers' main threads: each event's duration less its children's. */
function mainThreadTime(events: TraceEvent[]): [string, number][] {
  const main = new Set(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const totals = new Map<string, number>();
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph !== 'X' || !event.dur || !main.has(thread)) continue;
    byThread.set(thread, [...(byThread.get(thread) ?? []), event]);
  }
  for (const threadEvents of byThread.values()) {
    threadEvents.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const open: { event: TraceEvent; children: number }[] = [];
    const close = (until: number) => {
      while (open.length && open.at(-1)!.event.ts + open.at(-1)!.event.dur! <= until) {
        const { event, children } = open.pop()!;
        totals.set(event.name, (totals.get(event.name) ?? 0) + (event.dur! - children) / 1000);
        if (open.length) open.at(-1)!.children += event.dur!;
      }
    };
    for (const event of threadEvents) {
      close(event.ts);
      open.push({ event, children: 0 });
    }
    close(Infinity);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Sampled self time by function (name, file and line), in ms. */
function selfTimes(profile: Profile): [string, number][] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const where = url ? ` ${url.slice(url.lastIndexOf('/') + 1)}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'}${where}`;
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}
