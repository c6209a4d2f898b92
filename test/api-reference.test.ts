// /docs in a real browser (Debian's chromium driven by playwright-core): Redoc,
// served by the service itself, renders /v1/openapi.json under a CSP without
// inline scripts, and the page asks nothing of any other origin. A screenshot
// is saved to test-artifacts/api-reference.png.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, browserTestsRun, launchBrowser } from './support/browser.js';
import { useServer } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });

describe('/docs over HTTP', () => {
  it('serves the page with its own CSP: scripts from this origin only, none inline', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc.trim()).toBe("script-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/); // every script is a file
    const bundle = /src="(\/docs\/assets\/redoc\.standalone\.[0-9a-f]+\.js)"/.exec(html)?.[1];
    expect(bundle).toBeDefined();
    const asset = await fetch(server.url + bundle!);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-type')).toContain('javascript');
  });

  it('answers GET only: another method is the 404 envelope', async () => {
    const res = await fetch(`${server.url}/docs`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect((await fetch(`${server.url}/docs/assets/nothing.js`)).status).toBe(404);
  });
});

describe.runIf(browserTestsRun('api-reference.test.ts'))('/docs in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders the OpenAPI document with nothing fetched from elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${server.url}/docs`);
    await page.getByRole('heading', { name: 'List contacts' }).first().waitFor({ timeout: 30_000 });
    // Each operation's path is in its endpoint box (folded away until opened).
    expect(await page.locator('body').textContent()).toContain('/crm/contacts');
    expect(problems).toEqual([]);
    const elsewhere = requested.filter(
      (url) => !url.startsWith(server.url + '/') && !url.startsWith('blob:') && !url.startsWith('data:'),
    );
    expect(elsewhere).toEqual([]);
    // The viewport only: the whole reference is too tall an image to take in time.
    await page.screenshot({ path: path.join(ARTIFACTS, 'api-reference.png') });
    await page.close();
  }, 60_000);
});
