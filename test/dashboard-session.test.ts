// The dashboard when its session ends under it (signed out in another tab, idle,
// rights or password changed): the next GraphQL answer is a 401 (or, signed out
// in another tab, the page's CSRF token no longer matches the new cookie), and the
// page says so plainly with a way back through the sign-in form, to the page the
// person was on. Also the frame's keyboard (Escape closes the menu) and the favicon.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';
import {
  browserTestsRun,
  expectAccessible,
  launchBrowser,
  openDashboard,
  screenshot,
  signIn,
} from './support/browser.js';
import { createUser, type TestUser } from './support/oauth.js';

const runInBrowser = browserTestsRun('dashboard-session.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;
let admin: TestUser;

beforeAll(async () => {
  if (!runInBrowser) return;
  admin = await createUser(server, (await server.org('Acme Sessions')).id, { role: 'admin' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe.runIf(runInBrowser)('an ended session in chromium', { timeout: 90_000 }, () => {
  it('says the session has ended, and signing in again returns to the same page', async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    // The overview's own requests answered first: the session ends between actions, not during its loading.
    await expect.poll(() => page.locator('.loading').count()).toBe(0);

    // Ended on the server, as signing out in another tab or a password change does.
    await server.prisma.session.deleteMany({ where: { userId: admin.id } });
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your session has ended' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Nothing you saved is lost');
    await screenshot(page, 'dashboard-session-ended');
    await expectAccessible(page, 'session ended');

    await page.getByRole('link', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, admin);
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/crm/contacts');
  });

  it('signed out in another tab: the next click says the session has ended, and signing in returns there', async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard/settings/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    const other = await page.context().newPage();
    await other.goto(server.url + '/dashboard');
    await other.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your session has ended' }).waitFor();
    // Not the CSRF refusal's own words, and no header still showing who is signed in.
    expect(await page.locator('body').textContent()).not.toContain('X-CSRF-Token');
    expect(await page.locator('body').textContent()).not.toContain(admin.email);
    await expectAccessible(page, 'session ended after signing out in another tab');
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await signIn(page, admin);
    await page.getByRole('heading', { level: 1, name: 'API Keys' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/settings/api-keys');
    await page.context().close();
  });

  it('after the idle timeout the next action says the session has ended', async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard/settings/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    const idle = server.config.oauth.sessionIdleTimeoutSeconds * 1000;
    await server.prisma.session.updateMany({
      where: { userId: admin.id },
      data: { lastSeenAt: new Date(Date.now() - idle - 60_000) },
    });
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your session has ended' }).waitFor();
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await signIn(page, admin);
    await page.getByRole('heading', { level: 1, name: 'API Keys' }).waitFor();
    await page.context().close();
  });

  it('closes the menu with Escape, giving focus back to its button', async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard', { width: 360, height: 740 });
    const nav = page.locator('nav#nav');
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await expect(nav.isVisible()).resolves.toBe(true);
    await nav.getByRole('link').first().focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => nav.isVisible()).toBe(false);
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');
    await expectAccessible(page, 'menu closed by Escape');
    await page.context().close();
  });

  it('serves a favicon, which every page names', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await res.text()).toMatch(/^<svg /);
    }
    const page = await openDashboard(browser, server.url, admin, '/dashboard');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    // The browser fetched it under the page's CSP.
    const icon = await page.evaluate(async () => (await fetch('/favicon.svg')).status);
    expect(icon).toBe(200);
    await page.context().close();
  });
});
