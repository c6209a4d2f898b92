// npm run bench:dashboard: how long does a dashboard list of 50 take to appear?
// Starts the service as `npm start` runs it, gives an organization 200 contacts,
// employees, deals and invoices through the API, signs in with Debian's chromium
// and times, for each list, from the moment a person acts to the moment the 50th
// row is on screen:
//   - "open": typing the list's address (a full page load; the bundle is cached
//     after the first, as it is for anyone who has used the dashboard before),
//   - "navigate": clicking the list in the menu from another list.
// Beside them, the API request the page makes (limit 50), timed from this
// process, so what the browser adds is visible. Prints the median and p95, and
// then what a full load waited for, by the page's resource timing (medians, ms
// from navigation start): the HTML, the scripts run (DOMContentLoaded), each
// /graphql request's start and end, the 50th row.
//
// On a busy machine separate runs compare badly: BENCH_COMPARE starts another
// checkout of the service (the version before a change) beside this one, on the
// same database, and opens each list on each in turn, so both are measured in
// the same minutes under the same load.
//
//   DATABASE_URL        a PostgreSQL server to use (database bp_bench_dashboard is
//                       created and dropped); unset: embedded PostgreSQL
//   BENCH_ROUNDS        timings per list and way (default 30)
//   BENCH_COMPARE       another checkout of the service (its node_modules installed),
//                       measured beside this one and printed as "compared"
//   BENCH_TRACE         1: then, for each list and version, where BENCH_TRACE_LOADS (5)
//                       full loads spent the renderer's main thread and which of the
//                       script's functions took the time (bench/dashboard-trace.ts)
//   CHROMIUM_PATH       the browser (default /usr/bin/chromium)
// First: seeding goes through the services, whose modules declare type-graphql types.
import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { traceLoad, type Trace } from './dashboard-trace.js';
import {
  cleanup,
  createBenchDatabase,
  createBenchOrganization,
  printTable,
  serviceEnv,
  startCommandArguments,
  startServer,
} from './harness.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const ROWS = 200;
const PAGE_ROWS = 50;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const COMPARE = process.env.BENCH_COMPARE;
const TRACE = process.env.BENCH_TRACE === '1';
const TRACE_LOADS = Number(process.env.BENCH_TRACE_LOADS ?? 5);

interface List {
  /** The menu link's name and the page's heading. */
  name: string;
  path: string;
  api: string;
}

const LISTS: List[] = [
  { name: 'Contacts', path: '/dashboard/crm/contacts', api: '/v1/crm/contacts' },
  { name: 'Deals', path: '/dashboard/crm/deals', api: '/v1/crm/deals' },
  { name: 'Employees', path: '/dashboard/hr/employees', api: '/v1/hr/employees' },
  { name: 'Invoices', path: '/dashboard/finance/invoices', api: '/v1/finance/invoices' },
];

async function seed(baseUrl: string, key: string): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(baseUrl + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  for (let i = 0; i < ROWS; i++) {
    const contact = await post('/v1/crm/contacts', {
      firstName: `Ada${i}`,
      lastName: 'Lovelace',
      email: `ada${i}@example.com`,
      company: 'Analytical Engines',
    });
    await post('/v1/crm/deals', { title: `Engine ${i}`, amount: 125_000 + i, currency: 'EUR', contactId: contact.id });
    await post('/v1/hr/employees', {
      firstName: `Grace${i}`,
      lastName: 'Hopper',
      email: `grace${i}@example.com`,
      startDate: '2026-01-05',
      salary: 6_000_000,
      currency: 'EUR',
    });
    await post('/v1/finance/invoices', {
      contactId: contact.id,
      currency: 'EUR',
      lines: [{ description: 'Consulting', quantity: 3, unitAmount: 12_000 }],
    });
  }
}

/**
 * Set in every page before its scripts run: the page's own time (since navigation
 * start) at which a list first showed 50 rows, so a full load is timed exactly,
 * not to the next poll.
 */
function recordRowsShown(rows: number): void {
  const observer = new MutationObserver(() => {
    if (document.querySelectorAll('tbody tr').length < rows) return;
    (window as unknown as { rowsShownAt: number }).rowsShownAt = performance.now();
    observer.disconnect();
  });
  // The whole document from its start: a page whose data came with it draws its rows
  // while its module script runs, before DOMContentLoaded.
  observer.observe(document, { childList: true, subtree: true });
}

/** A full load's steps, by the page's own clock (ms from navigation start). */
interface Load {
  /** The 50th row on screen. */
  shown: number;
  /** The HTML received, and the scripts run (module scripts run before DOMContentLoaded). */
  html: number;
  scripts: number;
  /** The /graphql requests, in the order they started. */
  graphql: { start: number; end: number }[];
}

/** A full load of the list's address, to its 50th row, by the page's own clock (from navigation start). */
async function open(page: Page, baseUrl: string, list: List): Promise<Load> {
  await page.goto(baseUrl + list.path, { waitUntil: 'commit' });
  await page.waitForFunction(
    ([name]) =>
      document.querySelector('h1')?.textContent === name && (window as unknown as { rowsShownAt?: number }).rowsShownAt,
    [list.name] as const,
  );
  return page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const graphql = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => new URL(entry.name).pathname === '/graphql')
      .map((entry) => ({ start: entry.startTime, end: entry.responseEnd }));
    return {
      shown: (window as unknown as { rowsShownAt: number }).rowsShownAt,
      html: navigation.responseEnd,
      scripts: navigation.domContentLoadedEventStart,
      graphql,
    };
  });
}

/** A click on the menu link, to the 50th row, timed inside the page. */
async function navigate(page: Page, list: List): Promise<number> {
  return page.evaluate(
    ([name, rows]) =>
      new Promise<number>((resolve, reject) => {
        const link = Array.from(document.querySelectorAll('nav a')).find((a) => a.textContent?.trim() === name);
        if (!(link instanceof HTMLElement)) return reject(new Error(`no menu link ${name}`));
        const started = performance.now();
        // No named helper in here: tsx would wrap it in a __name() the page lacks.
        const observer = new MutationObserver(() => {
          if (document.querySelector('h1')?.textContent !== name) return;
          if (document.querySelectorAll('tbody tr').length < rows) return;
          observer.disconnect();
          resolve(performance.now() - started);
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        link.click();
      }),
    [list.name, PAGE_ROWS] as const,
  );
}

async function apiTime(baseUrl: string, key: string, list: List): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${list.api}?limit=${PAGE_ROWS}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${list.api}: ${response.status}`);
  return performance.now() - started;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The medians of a list's full loads, step by step; each /graphql request as start-end. */
function waterfallRow(list: List, version: string, loads: Load[]): string[] {
  const median = (read: (load: Load) => number | undefined) =>
    quantile(
      loads.map(read).filter((value): value is number => value !== undefined),
      0.5,
    ).toFixed(1);
  const requests = Math.max(...loads.map((load) => load.graphql.length));
  const graphql = Array.from(
    { length: requests },
    (_, i) => `${median((load) => load.graphql[i]?.start)}-${median((load) => load.graphql[i]?.end)}`,
  );
  return [
    list.name,
    version,
    median((load) => load.html),
    median((load) => load.scripts),
    graphql.join(', ') || 'none',
    median((load) => load.shown),
  ];
}

/** A version of the service, signed in in a browser context of its own. */
interface Version {
  label: string;
  url: string;
  page: Page;
}

/** What one version measured of one list. */
interface Measured {
  opened: number[];
  loads: Load[];
  navigated: number[];
  api: number[];
}

async function signedIn(browser: Browser, label: string, url: string): Promise<Version> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(recordRowsShown, PAGE_ROWS);
  await page.goto(`${url}/dashboard`);
  await page.getByLabel('Email').fill('admin@dashboard-bench.example');
  await page.getByLabel('Password').fill('bench-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return { label, url, page };
}

/** Each list's full loads traced on each version: the main thread's work and the script's functions, per load. */
async function printTraces(versions: Version[]): Promise<void> {
  for (const list of LISTS) {
    for (const { label, page, url } of versions) {
      const traces: Trace[] = [];
      for (let i = 0; i < TRACE_LOADS; i++) traces.push(await traceLoad(page, () => open(page, url, list)));
      const mean = (pick: (trace: Trace) => [string, number][]) => {
        const totals = new Map<string, number>();
        for (const trace of traces)
          for (const [name, time] of pick(trace)) totals.set(name, (totals.get(name) ?? 0) + time / traces.length);
        return [...totals].sort((a, b) => b[1] - a[1]).slice(0, 15);
      };
      console.log(
        `\n${list.name}, ${label}: a full load's main thread and functions, ms per load (${TRACE_LOADS} loads)`,
      );
      const [thread, functions] = [mean((trace) => trace.mainThread), mean((trace) => trace.functions)];
      printTable([
        ['main thread', 'ms', 'function (own time)', 'ms'],
        ...Array.from({ length: 15 }, (_, i) => [
          thread[i]?.[0] ?? '',
          thread[i]?.[1].toFixed(1) ?? '',
          functions[i]?.[0].slice(0, 60) ?? '',
          functions[i]?.[1].toFixed(1) ?? '',
        ]),
      ]);
    }
  }
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`no browser at ${CHROMIUM_PATH}: apt-get install chromium, or set CHROMIUM_PATH`);
  const database = await createBenchDatabase('bp_bench_dashboard');
  const start = (name: string, cwd?: string) =>
    startServer(name, {
      args: startCommandArguments(),
      env: serviceEnv(database.url),
      readyPath: '/readyz',
      // A page asks one thing at a time; the database's connections are shared with the machine's other work.
      poolSize: 5,
      cwd,
    });
  const server = await start('service');
  const compared = COMPARE ? await start('compared', COMPARE) : undefined;
  const organization = await createBenchOrganization(database.url, 'Dashboard Bench', ['admin']);
  await seed(server.url, organization.key);
  console.log(`${ROWS} contacts, deals, employees and invoices; PostgreSQL: ${database.where}`);
  if (compared) console.log(`"this": ${process.cwd()}; "compared": ${COMPARE}, in turn, round by round`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const versions = [await signedIn(browser, 'this', server.url)];
    if (compared) versions.push(await signedIn(browser, 'compared', compared.url));
    const rows = [['list of 50', 'way', 'version', 'median', 'p95', 'API alone (median)']];
    const waterfall = [['list of 50', 'version', 'HTML', 'scripts run', '/graphql requests (start-end)', '50th row']];
    for (const [index, list] of LISTS.entries()) {
      const from = LISTS[(index + 1) % LISTS.length]!;
      const measured = versions.map((): Measured => ({ opened: [], loads: [], navigated: [], api: [] }));
      // Warm: the bundle cached, the statements prepared.
      for (const version of versions) await open(version.page, version.url, list);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, { page, url }] of versions.entries()) {
          const load = await open(page, url, list);
          measured[i]!.opened.push(load.shown);
          measured[i]!.loads.push(load);
          await open(page, url, from);
          measured[i]!.navigated.push(await navigate(page, list));
          measured[i]!.api.push(await apiTime(url, organization.key, list));
        }
      }
      for (const [i, { label }] of versions.entries()) {
        const { opened, navigated, api, loads } = measured[i]!;
        rows.push([
          list.name,
          'open (full load)',
          label,
          ms(quantile(opened, 0.5)),
          ms(quantile(opened, 0.95)),
          ms(quantile(api, 0.5)),
        ]);
        rows.push([
          list.name,
          'navigate (menu)',
          label,
          ms(quantile(navigated, 0.5)),
          ms(quantile(navigated, 0.95)),
          '',
        ]);
        waterfall.push(waterfallRow(list, label, loads));
      }
    }
    printTable(rows);
    console.log('\nopen (full load), medians in ms from navigation start:');
    printTable(waterfall);
    console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
    if (TRACE) await printTraces(versions);
  } finally {
    await browser.close();
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
