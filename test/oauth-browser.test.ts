// The sign-in and consent pages in a real browser (Debian's chromium driven by
// playwright-core): the forms work without any script, Allow brings the app a
// code, Deny brings it access_denied. A screenshot of each page is saved under
// test-artifacts/ (gitignored) for a person to look at.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, browserTestsRun, launchBrowser } from './support/browser.js';
import { useServer } from './support/fixtures.js';
import {
  authorizeUrl,
  createApp,
  createUser,
  exchangeCode,
  pkcePair,
  type TestApp,
  type TestUser,
} from './support/oauth.js';

const runInBrowser = browserTestsRun('oauth-browser.test.ts');

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;
let app: TestApp;
let user: TestUser;
/** The app's redirect URI: a real server on loopback that records what it receives. */
let callback: http.Server;
let received: URL[] = [];

beforeAll(async () => {
  if (!runInBrowser) return;
  callback = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url); // not the browser's /favicon.ico
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Back at the app</h1>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const org = await server.org();
  app = await createApp(server, org.id, { redirectUris: [redirectUri], name: 'Contact Sync' });
  user = await createUser(server, org.id);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (callback) await new Promise((resolve) => callback.close(resolve));
});

async function signIn(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-sign-in.png`), fullPage: true });
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/oauth\/authorize\?/);
}

describe.runIf(runInBrowser)('in chromium, without JavaScript', () => {
  it('signs in, shows the consent page, and Allow brings the app a code that works', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const { verifier, challenge } = pkcePair();
    received = [];
    await page.goto(
      server.url +
        authorizeUrl({
          client_id: app.clientId,
          redirect_uri: app.redirectUri,
          response_type: 'code',
          scope: 'crm:read crm:write',
          state: 'browser-state',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
    );
    await signIn(page, 'allow');
    await expect(
      page.getByRole('heading', { name: 'Allow Contact Sync to access your account?' }).isVisible(),
    ).resolves.toBe(true);
    expect(await page.textContent('body')).toContain('Read CRM contacts and deals.');
    await page.screenshot({ path: path.join(ARTIFACTS, 'allow-consent.png'), fullPage: true });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${app.redirectUri}?**`);
    expect(await page.textContent('h1')).toBe('Back at the app');
    await page.screenshot({ path: path.join(ARTIFACTS, 'allow-back-at-app.png') });
    const back = received.at(-1)!;
    expect(back.searchParams.get('state')).toBe('browser-state');
    const res = await exchangeCode(server, app, back.searchParams.get('code')!, verifier);
    expect(res.status, res.text).toBe(200);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: res.body.access_token })).status).toBe(200);
    // The session cookie is out of scripts' reach and not sent on cross-site POSTs.
    const cookie = (await context.cookies()).find((c) => c.name === 'bp_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await context.close();
  });

  it('Deny brings the app error=access_denied and no code', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    received = [];
    await page.goto(
      server.url +
        authorizeUrl({
          client_id: app.clientId,
          redirect_uri: app.redirectUri,
          response_type: 'code',
          scope: 'crm:read',
          state: 'deny-state',
          // New apps require PKCE (the default).
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }),
    );
    await signIn(page, 'deny');
    await page.screenshot({ path: path.join(ARTIFACTS, 'deny-consent.png'), fullPage: true });
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${app.redirectUri}?**`);
    const back = received.at(-1)!;
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('deny-state');
    expect(back.searchParams.get('code')).toBeNull();
    await context.close();
  });

  it('shows an error page, and goes nowhere, for a redirect URI that is not registered', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(
      server.url +
        authorizeUrl({
          client_id: app.clientId,
          redirect_uri: `${app.redirectUri}/../evil`,
          response_type: 'code',
        }),
    );
    expect(response?.status()).toBe(400);
    expect(page.url().startsWith(server.url)).toBe(true);
    expect(await page.textContent('body')).toContain('not registered');
    await page.screenshot({ path: path.join(ARTIFACTS, 'error-page.png'), fullPage: true });
    await context.close();
  });
});
