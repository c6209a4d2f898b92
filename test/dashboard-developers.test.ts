// The dashboard's Developers section in a real browser (Debian's chromium via
// playwright-core), as an admin does it: a webhook made through the form to a
// receiver on loopback (its secret shown once), a test event that arrives
// signed and shows in the deliveries log, a redelivery, the chart's text
// alternative, a failing delivery found by "failed only" and sent again by
// "redeliver failed since"; an OAuth app created (id and secret shown once),
// its secret rotated, deleted. A member sees no Developers section. Each page
// gets a screenshot under test-artifacts/ and an axe-core check.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRun, expectAccessible, launchBrowser, openDashboard, screenshot } from './support/browser.js';
import { useServer } from './support/fixtures.js';
import { createUser, type TestUser } from './support/oauth.js';
import { expectServiceSignature, useReceivers, useWorker, type Receiver } from './support/receiver.js';

// Retries in milliseconds: a failing event exhausts its 4 attempts at once, and only
// then is it one "redeliver failed since" sends again (one still retrying is left to its retries).
const server = useServer({ RATE_LIMIT_MAX: '100000', WEBHOOK_RETRY_BASE_MS: '20' });
const ATTEMPTS = 4;
useWorker(server);
const receivers = useReceivers();

/** Presses the page's Refresh until `rows` delivery rows are shown (the worker delivers meanwhile). */
async function refreshUntil(page: Page, rows: string, count: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if ((await page.locator(rows).count()) >= count) return;
    if (Date.now() > deadline) throw new Error(`expected ${count} of ${rows}, got ${await page.locator(rows).count()}`);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForTimeout(300);
  }
}

const ROWS = 'section[aria-labelledby="deliveries-title"] tbody tr';

describe.runIf(browserTestsRun('dashboard-developers.test.ts'))('the Developers section', () => {
  let browser: Browser;
  let admin: TestUser;
  let member: TestUser;
  let key: string;
  let receiver: Receiver;

  beforeAll(async () => {
    const org = await server.org();
    admin = await createUser(server, org.id);
    member = await createUser(server, org.id, { role: 'member', scopes: ['crm:read'] });
    key = await org.key(['admin']);
    receiver = await receivers();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('makes a webhook, sends a test event, shows and redelivers its deliveries', async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard/developers/webhooks');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByText('No webhook yet.').waitFor();
    await expectAccessible(page, 'webhooks, empty');

    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: /^contact\.created / }).check();
    await page.getByLabel('Description').fill('Local receiver');
    await screenshot(page, 'developers-webhook-form');
    await expectAccessible(page, 'new webhook form');
    await page.getByRole('button', { name: 'Create webhook' }).click();

    await page.getByRole('heading', { name: 'Webhook created' }).waitFor();
    const secret = (await page.locator('code[data-secret="Signing secret"]').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'developers-webhook-secret');
    await page.getByRole('button', { name: 'I have copied them' }).click();
    expect(await page.locator('body').textContent()).not.toContain(secret);
    await expect(page.getByRole('cell', { name: /Enabled/ }).count()).resolves.toBe(1);
    await screenshot(page, 'developers-webhooks');
    await expectAccessible(page, 'webhooks');

    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [test] = await receiver.waitFor(1);
    expect(JSON.parse(test!.body)).toMatchObject({ type: 'webhook.test' });
    expectServiceSignature(test!, secret);
    await refreshUntil(page, ROWS, 1);
    await expect(page.locator(ROWS).first().textContent()).resolves.toMatch(/webhook\.test.*Succeeded\s*200/);

    await page
      .locator(ROWS)
      .first()
      .getByRole('button', { name: /^Redeliver the webhook\.test event/ })
      .click();
    const again = await receiver.waitFor(2);
    expect(again[1]!.headers['webhook-id']).toBe(test!.headers['webhook-id']);
    await refreshUntil(page, ROWS, 2);
    const chart = await page.getByRole('img', { name: /Deliveries per hour/ }).getAttribute('aria-label');
    expect(chart).toMatch(/: [1-9]\d* succeeded, 0 failed\./);
    await screenshot(page, 'developers-webhook-detail');
    await expectAccessible(page, 'webhook detail');

    // A failing receiver: the event's delivery is found by "failed only", then redelivered.
    receiver.answer = () => ({ status: 500, body: 'receiver down' });
    const contact = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'ada@example.test', firstName: 'Ada' },
    });
    expect(contact.status, contact.text).toBe(201);
    await receiver.waitFor(2 + ATTEMPTS);
    await refreshUntil(page, ROWS, 2 + ATTEMPTS);
    await page.getByRole('checkbox', { name: 'Failed only' }).check();
    await page.waitForURL(/status=failed/);
    // The filtered page replaces the whole log: the event's failed attempts only.
    await expect.poll(() => page.locator(ROWS).count(), { timeout: 10_000 }).toBe(ATTEMPTS);
    for (const status of await page.locator(ROWS).evaluateAll((rows) => rows.map((row) => row.dataset.status))) {
      expect(status).toBe('failed');
    }
    await expect(page.locator(ROWS).first().textContent()).resolves.toMatch(
      /contact\.created.*Failed\s*500.*receiver down/,
    );
    await screenshot(page, 'developers-webhook-failed-only');
    await expectAccessible(page, 'webhook detail, failed only');

    receiver.answer = () => ({});
    await page.getByRole('button', { name: 'Redeliver failed' }).click();
    await page.getByText('1 failed event is queued again.').waitFor();
    const all = await receiver.waitFor(3 + ATTEMPTS);
    const redelivered = all[2 + ATTEMPTS]!;
    expect(JSON.parse(redelivered.body)).toMatchObject({ type: 'contact.created' });
    expect(redelivered.headers['webhook-id']).toBe(all[2]!.headers['webhook-id']);
    expectServiceSignature(redelivered, secret);
    await page.getByRole('checkbox', { name: 'Failed only' }).uncheck();
    await refreshUntil(page, ROWS, 3 + ATTEMPTS);
    await expect(page.locator(ROWS).first().textContent()).resolves.toMatch(/contact\.created.*Succeeded\s*200/);

    // Edit: disabled, with another description; then a new secret (shown once); then gone.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('radio', { name: /^Disabled/ }).check();
    await page.getByLabel('Description').fill('Paused');
    await screenshot(page, 'developers-webhook-edit');
    await expectAccessible(page, 'webhook edit form');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Paused').waitFor();
    await expect(page.getByRole('region', { name: 'Endpoint' }).textContent()).resolves.toContain('Disabled');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'A new signing secret' }).waitFor();
    const rotated = (await page.locator('code[data-secret="Signing secret"]').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'I have copied them' }).click();
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('No webhook yet.').waitFor();
    await page.context().close();
  }, 120_000);

  it('shows a webhook and its deliveries at 360 px wide', async () => {
    const made = await server.rest('POST', '/v1/webhooks', {
      key,
      body: { url: `${receiver.url}/narrow`, events: ['deal.closed'], description: 'Deals won or lost' },
    });
    expect(made.status, made.text).toBe(201);
    const page = await openDashboard(browser, server.url, admin, '/dashboard/developers/webhooks', {
      width: 360,
      height: 740,
    });
    await page.getByRole('link', { name: `${receiver.url}/narrow` }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await refreshUntil(page, ROWS, 1);
    await screenshot(page, 'developers-webhook-detail-360');
    await expectAccessible(page, 'webhook detail at 360 px');
    // Nothing wider than the screen: the log's rows are stacked, not scrolled sideways.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(360);
    await page.getByRole('link', { name: '← Webhooks' }).click();
    await page.getByRole('link', { name: `${receiver.url}/narrow` }).waitFor();
    await screenshot(page, 'developers-webhooks-360');
    await expectAccessible(page, 'webhooks at 360 px');
    await page.context().close();
  }, 30_000);

  it('creates an OAuth app (id and secret shown once), rotates its secret, deletes it', async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard/developers/oauth-apps');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByText('No OAuth app yet.').waitFor();
    await page.getByRole('button', { name: 'New OAuth app' }).click();
    await page.getByLabel('Name').fill('Contact Sync');
    await page.getByLabel('Description').fill('Syncs contacts.');
    await page.getByLabel('Redirect URIs').fill('http://127.0.0.1:8765/callback\nhttps://sync.example.test/callback');
    await page.getByRole('checkbox', { name: /^crm:read / }).check();
    await screenshot(page, 'developers-oauth-app-form');
    await expectAccessible(page, 'new OAuth app form');
    await page.getByRole('button', { name: 'Create app' }).click();

    await page.getByRole('heading', { name: 'Contact Sync is created' }).waitFor();
    const clientId = (await page.locator('code[data-secret="Client ID"]').textContent())!;
    const secret = (await page.locator('code[data-secret="Client secret"]').textContent())!;
    expect(clientId).toMatch(/^bpc_/);
    expect(secret).toMatch(/^bpcs_/);
    await screenshot(page, 'developers-oauth-app-secret');
    await expectAccessible(page, 'OAuth app secret');
    await page.getByRole('button', { name: 'I have copied them' }).click();
    expect(await page.locator('body').textContent()).not.toContain(secret);
    await page.getByRole('heading', { name: 'Contact Sync' }).waitFor();
    await screenshot(page, 'developers-oauth-apps');
    await expectAccessible(page, 'OAuth apps');

    await page.getByRole('button', { name: 'Rotate secret of Contact Sync' }).click();
    await page.getByRole('heading', { name: 'A new client secret for Contact Sync' }).waitFor();
    const rotated = (await page.locator('code[data-secret="Client secret"]').textContent())!;
    expect(rotated).toMatch(/^bpcs_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'I have copied them' }).click();

    await page.getByRole('button', { name: 'Delete Contact Sync' }).click();
    await page.getByText('No OAuth app yet.').waitFor();
    const left = await server.gql('{ oauthApps { data { id } } }', {}, { key });
    expect(left.data.oauthApps.data).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('shows a member no Developers section, and its pages as not available', async () => {
    const page = await openDashboard(browser, server.url, member, '/dashboard/developers/webhooks');
    await page.getByRole('heading', { name: 'Not available to you' }).waitFor();
    await expect(page.getByRole('navigation', { name: 'Dashboard' }).textContent()).resolves.not.toContain(
      'Developers',
    );
    await screenshot(page, 'developers-member');
    await expectAccessible(page, 'webhooks as a member');
    await page.context().close();
  }, 30_000);
});
