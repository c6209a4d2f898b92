// The dashboard's Settings in a real browser (Debian's chromium through
// playwright-core) against a real server and database: signing in shows who
// and where; an API key is created, shown once, works over REST, and is
// refused once revoked (and then listed only when revoked keys are shown; a
// rotated one names its replacement); a member sees no Developers or Users and
// is turned away from them; users are invited; a member changes their own
// password (the API's refusals beside the field, which gets focus), signs out
// another browser, and signs in with the new password. Each page is
// screenshotted under test-artifacts/ and checked with axe-core.
import type { Browser, Page } from 'playwright-core';
import { operatorPrincipal } from '../src/auth/principal.js';
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

const runInBrowser = browserTestsRun('dashboard-settings.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;
let admin: TestUser;
let member: TestUser;
let orgId: string;

beforeAll(async () => {
  if (!runInBrowser) return;
  orgId = (await server.org('Acme Settings')).id;
  admin = await createUser(server, orgId, { role: 'admin' });
  member = await createUser(server, orgId, { role: 'member', scopes: ['crm:read', 'crm:write'] });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The page's heading, once the page has loaded. */
async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

// A whole flow in a browser takes a while on a shared machine (the suite runs files in parallel).
describe.runIf(runInBrowser)('dashboard settings in chromium', { timeout: 90_000 }, () => {
  it('signs in through the sign-in page and shows email, role and organization', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + '/dashboard');
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await signIn(page, admin);
    await heading(page, 'Overview');
    const facts = await page.locator('dl.facts').textContent();
    expect(facts).toContain(admin.email);
    expect(facts).toContain('admin');
    expect(facts).toContain('Acme Settings');
    await screenshot(page, 'dashboard-overview');
    await expectAccessible(page, 'overview');
    await context.close();
  });

  it('creates an API key shown once, which works over REST until it is revoked after a confirmation', async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard/settings/api-keys');
    await heading(page, 'API Keys');
    await page.getByRole('link', { name: 'New API key' }).click();
    await heading(page, 'New API key');
    await screenshot(page, 'dashboard-api-key-new');
    await expectAccessible(page, 'new API key');
    // Without a name or a scope the API says why, beside the field.
    await page.getByRole('button', { name: 'Create API key' }).click();
    await expect(page.locator('#field-name-error').textContent()).resolves.toBeTruthy();
    // Focus on the field to fix, not left on the page's body.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-name');
    await page.getByLabel('Name').fill('Browser key');
    await page.getByRole('checkbox', { name: /crm:read/ }).check();
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('heading', { name: 'Key and secret for Browser key' }).waitFor();
    expect(await page.getByRole('alert').first().textContent()).toContain('shown only once');
    const key = (await page.locator('[data-secret="Key"]').textContent())!;
    const secret = (await page.locator('[data-secret="Secret"]').textContent())!;
    expect(key).toMatch(/^bpk_/);
    expect(secret).toMatch(/^bps_/);
    await expect(page.getByRole('button', { name: 'Copy Key' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Copy Secret' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'dashboard-api-key-shown-once');
    await expectAccessible(page, 'API key shown once');

    // Away and back: the list shows the key, the secret is gone for good.
    await page.locator('a.brand').click();
    await heading(page, 'Overview');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API Keys' }).click();
    await heading(page, 'API Keys');
    const row = page.locator('tr', { hasText: 'Browser key' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Active');
    expect(await row.textContent()).toContain(key.slice(0, 12));
    expect(await page.content()).not.toContain(secret);
    expect(await page.content()).not.toContain(key);
    await screenshot(page, 'dashboard-api-keys');
    await expectAccessible(page, 'API keys');

    expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(200);

    // Revoke asks first; dismissing keeps the key, accepting revokes it.
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await row.getByRole('button', { name: /Revoke/ }).click();
    expect(questions[0]).toContain('Revoke "Browser key"');
    expect(await row.textContent()).toContain('Active');
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: /Revoke/ }).click();
    // Revoked keys are hidden unless asked for.
    await page.locator('tr', { hasText: 'Browser key' }).waitFor({ state: 'detached' });
    await page.getByRole('checkbox', { name: 'Show revoked keys' }).check();
    await page.locator('tr', { hasText: 'Browser key' }).getByText('Revoked').waitFor();
    expect(new URL(page.url()).searchParams.get('revoked')).toBe('shown');
    expect((await server.rest('GET', '/v1/crm/contacts', { key })).status).toBe(401);
    await page.context().close();
  });

  it('marks keys created more than 90 days ago for rotation, and rotates one showing the new secret once', async () => {
    const created = await server.services.apiKeys.create(operatorPrincipal(orgId), {
      name: 'Old key',
      scopes: ['crm:read'],
    });
    await server.prisma.apiKey.update({
      where: { id: created.id },
      data: { createdAt: new Date(Date.now() - 91 * 24 * 60 * 60 * 1000) },
    });
    const page = await openDashboard(browser, server.url, admin, '/dashboard/settings/api-keys');
    const row = page.locator('tr', { hasText: 'Old key' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Older than 90 days: rotate');
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: /Rotate/ }).click();
    await page.getByRole('heading', { name: 'New key and secret for Old key' }).waitFor();
    const newKey = (await page.locator('[data-secret="Key"]').textContent())!;
    expect((await server.rest('GET', '/v1/crm/contacts', { key: newKey })).status).toBe(200);
    expect((await server.rest('GET', '/v1/crm/contacts', { key: created.key })).status).toBe(401);
    await page.getByRole('button', { name: 'I have copied them' }).click();
    expect(await page.locator('[data-secret]').count()).toBe(0);
    // The old key is revoked, so hidden; shown, it names the key that replaced it.
    await expect.poll(() => page.locator('tr', { hasText: 'Old key' }).count()).toBe(1);
    await page.getByRole('checkbox', { name: 'Show revoked keys' }).check();
    const old = page.locator(`tr[data-key-id="${created.id}"]`);
    await old.waitFor();
    expect(await old.textContent()).toContain(`Replaced by Old key ${newKey.slice(0, 12)}`);
    await screenshot(page, 'dashboard-api-keys-revoked-shown');
    await expectAccessible(page, 'API keys with revoked ones');
    const asAdmin = await server.services.apiKeys.get(operatorPrincipal(orgId), created.id);
    const replacement = await server.prisma.apiKey.findFirst({
      where: { organizationId: orgId, name: 'Old key', revokedAt: null },
    });
    expect(newKey.startsWith(replacement!.prefix)).toBe(true);
    expect(asAdmin.replacedById).toBe(replacement?.id);
    await page.context().close();
  });

  it('lets an admin invite a user, change their scopes and remove them', async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard/settings/users');
    await heading(page, 'Users');
    await page.locator('tr', { hasText: member.email }).waitFor();
    await screenshot(page, 'dashboard-users');
    await expectAccessible(page, 'users');
    await page.getByRole('link', { name: 'Invite user' }).click();
    await heading(page, 'Invite user');
    const email = `invited-${Date.now()}@example.test`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name').fill('Invited Person');
    await page.getByLabel('First password').fill('short');
    await page.getByRole('checkbox', { name: /hr:read/ }).check();
    await page.getByRole('button', { name: 'Invite user' }).click();
    // The API's rule for passwords, beside the password.
    await page.locator('#field-password-error').waitFor();
    await screenshot(page, 'dashboard-user-invite');
    await expectAccessible(page, 'invite user');
    await page.getByLabel('First password').fill('a long enough first password');
    await page.getByRole('button', { name: 'Invite user' }).click();
    await heading(page, 'Users');
    const row = page.locator('tr', { hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain('hr:read');

    await row.getByRole('link', { name: email }).click();
    await heading(page, `Edit ${email}`);
    await expect(page.getByRole('checkbox', { name: /hr:read/ }).isChecked()).resolves.toBe(true);
    await screenshot(page, 'dashboard-user-edit');
    await expectAccessible(page, 'edit user');
    await page.getByRole('checkbox', { name: /finance:read/ }).check();
    await page.getByRole('button', { name: 'Save user' }).click();
    await heading(page, 'Users');
    await expect(page.locator('tr', { hasText: email }).textContent()).resolves.toContain('finance:read');
    const stored = await server.prisma.user.findFirst({ where: { email } });
    expect([...stored!.scopes].sort()).toEqual(['finance:read', 'hr:read']);

    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .locator('tr', { hasText: email })
      .getByRole('button', { name: /Remove/ })
      .click();
    await page.locator('tr', { hasText: email }).waitFor({ state: 'detached' });
    expect(await server.prisma.user.findFirst({ where: { email } })).toBeNull();
    await page.context().close();
  });

  it('shows a member no Developers or Users and turns them away from the Users page, as the server does', async () => {
    const page = await openDashboard(browser, server.url, member, '/dashboard');
    await heading(page, 'Overview');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    expect(await nav.getByText('Developers').count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'API Keys' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Contacts' }).count()).toBe(1);
    await page.goto(server.url + '/dashboard/settings/users');
    await heading(page, 'Not available to you');
    await screenshot(page, 'dashboard-not-available');
    await expectAccessible(page, 'not available');
    // The server refuses the member's session too: the same GraphQL query, from the page.
    const answer = await page.evaluate(async () => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ query: '{ users { data { id } } }' }),
      });
      return (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    });
    expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    await page.context().close();
  });

  it('fits a 360 px screen: no sideways scrolling, the navigation behind the Menu button', async () => {
    // A wide table to fit: the list has keys in it.
    await server.services.apiKeys.create(operatorPrincipal(orgId), { name: 'Narrow screen key', scopes: ['crm:read'] });
    const page = await openDashboard(browser, server.url, admin, '/dashboard/settings/api-keys', {
      width: 360,
      height: 740,
    });
    await heading(page, 'API Keys');
    const nav = page.locator('nav#nav');
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(nav.getByRole('link', { name: 'Users' }).isVisible()).resolves.toBe(true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await screenshot(page, 'dashboard-api-keys-360');
    await expectAccessible(page, 'API keys at 360 px');
    await page.context().close();
  });

  it('lets a member change their own password, sign out another browser, and sign in with the new one', async () => {
    const person = await createUser(server, orgId, { role: 'member', scopes: ['crm:read'] });
    const elsewhere = await openDashboard(browser, server.url, person, '/dashboard');
    const page = await openDashboard(browser, server.url, person, '/dashboard');
    await page.getByRole('link', { name: person.email }).click();
    await heading(page, 'Your account');
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(2);
    expect(await sessions.textContent()).toContain('This browser');
    expect(await sessions.textContent()).toContain('Chrome on Linux');
    await screenshot(page, 'dashboard-account');
    await expectAccessible(page, 'your account');

    // The API's refusals, beside the field they are about, which gets focus.
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('New password again').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('#field-currentPassword-error').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-currentPassword');
    await page.getByLabel('Current password').fill(person.password);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.locator('#field-newPassword-error').textContent()).resolves.toContain('at least 8 characters');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-newPassword');
    await expectAccessible(page, 'password refused');

    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('New password again').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed.').waitFor();
    // The other browser is signed out; this one stays.
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(1);
    await elsewhere.getByRole('link', { name: 'Contacts' }).click();
    await heading(elsewhere, 'Your session has ended');
    expect(await server.services.sessions.verifyCredentials(person.email, person.password)).toBeUndefined();

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, { email: person.email, password: 'a brand new password' });
    await heading(page, 'Overview');
    await page.context().close();
    await elsewhere.context().close();
  });

  it("signs out another of one's own sessions from the account page", async () => {
    const person = await createUser(server, orgId, { role: 'member', scopes: ['crm:read'] });
    const elsewhere = await openDashboard(browser, server.url, person, '/dashboard');
    const page = await openDashboard(browser, server.url, person, '/dashboard/settings/account');
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(2);
    await sessions.getByRole('button', { name: /^Sign out Chrome on Linux/ }).click();
    await page.getByText('Chrome on Linux is signed out.').waitFor();
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(1);
    expect(await server.prisma.session.count({ where: { userId: person.id } })).toBe(1);
    await elsewhere.getByRole('link', { name: 'Contacts' }).click();
    await heading(elsewhere, 'Your session has ended');
    await page.context().close();
    await elsewhere.context().close();
  });
});
