// What browser tests share: Debian's chromium driven by playwright-core, a
// dashboard sign-in as a person does it, a screenshot per page under
// test-artifacts/ (gitignored) and an axe-core accessibility check per page.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const ARTIFACTS = path.resolve(import.meta.dirname, '..', '..', 'test-artifacts');

/**
 * The browser: CHROMIUM_PATH, else the first of the usual places. A machine without
 * one skips browser tests and says so, unless REQUIRE_BROWSER_TESTS=1 (set by .ci/run,
 * which installs Debian's chromium first), where that is a failure.
 */
export const CHROMIUM = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
].find((candidate): candidate is string => !!candidate && existsSync(candidate));

const REQUIRED = process.env.REQUIRE_BROWSER_TESTS === '1';

/** Whether this machine runs browser tests; warns once for the file when it does not. */
export function browserTestsRun(file: string): boolean {
  if (!CHROMIUM && !REQUIRED) {
    console.warn(`${file}: no chromium found (set CHROMIUM_PATH, or apt-get install chromium); skipped`);
  }
  return !!CHROMIUM || REQUIRED;
}

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('REQUIRE_BROWSER_TESTS=1 but no chromium found (CHROMIUM_PATH, /usr/bin/chromium)');
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Signs in on the sign-in page the browser is on, as a person would. */
export async function signIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the dashboard at `path` in a new page, signing in on the way. */
export async function openDashboard(
  browser: Browser,
  baseUrl: string,
  user: { email: string; password: string },
  dashboardPath = '/dashboard',
  viewport = { width: 1280, height: 800 },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(baseUrl + dashboardPath);
  await signIn(page, user);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return page;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const require = createRequire(import.meta.url);
let axeSource: Promise<string> | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core's check of the page as it is: no serious or critical violation.
 * The script goes in through the DevTools protocol (page.evaluate), which the
 * page's CSP does not govern, so the page keeps the CSP it ships with.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      targets: nodes.map((node) => node.target.join(' ')),
    }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}
