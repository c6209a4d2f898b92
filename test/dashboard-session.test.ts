// The dashboard when its session ends under it (signed out elsewhere, idle, rights
// changed): the next GraphQL answer is a 401, and the page says so plainly with a
// way back through the sign-in form, to the page the person was on.
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
});
