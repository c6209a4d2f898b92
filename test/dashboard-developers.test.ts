// The dashboard's Developers section in a real browser (Debian's chromium via
// playwright-core), as an admin does it: a webhook made through the form to a
// receiver on loopback (its secret shown once), a test event that arrives
// signed and shows in the deliveries log, a redelivery, the chart's text
// alternative, a failing delivery found by "failed only" and sent again by
// "redeliver failed since"; an OAuth app created (id and secret shown once),
// its secret rotated, edited, deleted. A delivery's detail (payload, request
// headers, the answer, every attempt; a redelivery marked and linked to its
// original; no "retry at" once the retry succeeded), the log updating itself,
// the chart's hours and their counts on hover and keyboard focus, the events
// page filtered by type and record, "Select all" event types. A member sees no
// Developers section. Each page gets a screenshot under test-artifacts/ and an
// axe-core check.
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
    const chart = await page.getByRole('group', { name: /Deliveries per hour/ }).getAttribute('aria-label');
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

  it("shows a delivery's payload, headers and answer, each attempt, a redelivery marked; the log updates itself", async () => {
    // The event's first attempt fails, its retry (WEBHOOK_RETRY_BASE_MS later) is answered with a header and a body.
    const target = await receivers((request, n) =>
      n === 1
        ? { status: 500, body: 'not yet' }
        : { status: 200, body: `thanks ${n}`, headers: { 'x-receiver': 'yes', 'content-type': 'text/plain' } },
    );
    const made = await server.rest('POST', '/v1/webhooks', {
      key,
      body: { url: target.url, events: ['contact.created'], description: 'Detail receiver' },
    });
    expect(made.status, made.text).toBe(201);
    const webhookId = made.body.id as string;
    const secret = made.body.secret as string;
    const page = await openDashboard(browser, server.url, admin, `/dashboard/developers/webhooks/${webhookId}`, {
      width: 1440,
      height: 900,
    });
    await page.getByText('No delivery yet.').waitFor();

    // A contact made elsewhere: its two attempts appear without Refresh, focus staying where it was.
    await page.getByRole('checkbox', { name: 'Failed only' }).focus();
    const contact = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'detail@example.test', firstName: 'Detail' },
    });
    expect(contact.status, contact.text).toBe(201);
    await target.waitFor(2);
    await expect.poll(() => page.locator(ROWS).count(), { timeout: 15_000 }).toBe(2);
    // The live region is filled by an effect after the rows' render: a frame later, so it is polled too.
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /new deliver/ })
          .count(),
      )
      .toBe(1);
    expect(await page.evaluate(() => document.activeElement?.parentElement?.textContent)).toContain('Failed only');
    // Retried and succeeded: the failed attempt no longer says "retry at".
    const log = await page.locator('section[aria-labelledby="deliveries-title"] tbody').textContent();
    expect(log).not.toMatch(/retry at/i);
    expect(log).toMatch(/Retry 1/);

    // The chart: its hours labelled, each hour's counts on keyboard focus and on hover.
    const hourLabels = await page.locator('.chart-hours li').allTextContents();
    expect(hourLabels).toHaveLength(24);
    expect(hourLabels.filter(Boolean).length).toBe(6);
    for (const label of hourLabels.filter(Boolean)) expect(label).toMatch(/\d{1,2}[:.]\d{2}/);
    const hours = page.locator('g.chart-hour');
    const readout = page.locator('.chart-readout');
    await hours.last().focus();
    const lastHour = (await hours.last().getAttribute('aria-label'))!;
    expect(lastHour).toMatch(/: [1-9]\d* succeeded, [1-9]\d* failed$/);
    await expect(readout.textContent()).resolves.toBe(lastHour);
    await page.keyboard.press('ArrowLeft');
    const before = (await hours.nth(22).getAttribute('aria-label'))!;
    await expect.poll(() => readout.textContent()).toBe(before);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(before);
    await hours.nth(3).hover();
    await expect.poll(() => readout.textContent()).toBe(await hours.nth(3).getAttribute('aria-label'));
    await screenshot(page, 'developers-webhook-live-log');
    await expectAccessible(page, 'webhook detail with its live log');

    // The failed first attempt's detail: payload, signed request headers, the answer, both attempts.
    const failedRow = page.locator(ROWS).filter({ hasText: 'Failed' });
    await failedRow.getByRole('link', { name: /contact\.created delivery/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Delivery of contact.created' }).waitFor();
    const payload = page.getByRole('region', { name: 'Payload' });
    await expect(payload.textContent()).resolves.toContain('detail@example.test');
    const request = page.getByRole('region', { name: 'Request' });
    const eventId = target.received[0]!.headers['webhook-id'] as string;
    for (const name of ['webhook-signature', 'x-service-signature', 'webhook-timestamp', 'content-type']) {
      await expect(request.getByRole('rowheader', { name }).count()).resolves.toBe(1);
    }
    await expect(request.getByRole('row', { name: /webhook-id/ }).textContent()).resolves.toContain(eventId);
    await expect(request.getByRole('row', { name: /x-service-signature/ }).textContent()).resolves.toContain(
      target.received[0]!.headers['x-service-signature'] as string,
    );
    const answer = page.getByRole('region', { name: 'Answer' });
    await expect(answer.textContent()).resolves.toMatch(/Status\s*500.*not yet/s);
    const attempts = page.getByRole('region', { name: 'Attempts of this event' });
    await expect.poll(() => attempts.locator('tbody tr').count()).toBe(2);
    expect(await page.locator('main').textContent()).not.toMatch(/retry at/i);
    expect(await page.content()).not.toContain(secret);
    await expectAccessible(page, 'a failed delivery');

    // The retry that got through: the receiver's own headers and body.
    await attempts.getByRole('link').click();
    await page.getByRole('row', { name: /x-receiver/ }).waitFor();
    await expect(answer.textContent()).resolves.toMatch(/Status\s*200.*thanks 2/s);
    await expect(page.locator('main').textContent()).resolves.toContain('Retry 1');
    const retried = new URL(page.url()).pathname.split('/').pop()!;

    // Sent again from here: a redelivery, marked and linked to this one.
    await page.getByRole('button', { name: 'Send again' }).click();
    await target.waitFor(3);
    await expect.poll(() => attempts.locator('tbody tr').count(), { timeout: 15_000 }).toBe(3);
    await attempts.locator('tbody tr').last().getByRole('link').click();
    const mark = page.locator('.notice.redelivery');
    await mark.waitFor();
    expect(await mark.textContent()).toContain('Redelivery.');
    await expect(page.locator('main').textContent()).resolves.toContain('thanks 3');
    const redelivery = new URL(page.url()).pathname.split('/').pop()!;
    await screenshot(page, 'developers-delivery-detail');
    await expectAccessible(page, 'a redelivery');

    // As the API says: the link, the headers kept, no retry pending.
    const stored = await server.rest('GET', `/v1/webhooks/${webhookId}/deliveries/${redelivery}`, { key });
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body).toMatchObject({
      trigger: 'manual',
      redeliveryOf: retried,
      statusCode: 200,
      retryPending: false,
    });
    expect(stored.body.requestHeaders.map((header: { name: string }) => header.name)).toContain('webhook-signature');
    expect(stored.body.responseHeaders).toContainEqual({ name: 'x-receiver', value: 'yes' });
    const first = await server.rest('GET', `/v1/webhooks/${webhookId}/deliveries?eventId=${eventId}`, { key });
    expect(first.body.data[0]).toMatchObject({ attempt: 1, status: 'failed', retryPending: false });
    expect(first.body.data[0].nextAttemptAt).toEqual(expect.any(String));

    await mark.getByRole('link').click();
    await page.waitForURL(new RegExp(`/deliveries/${retried}$`));
    await page.getByRole('row', { name: /x-receiver/ }).waitFor();

    // At 360 px: nothing wider than the screen.
    const narrow = await page.context().newPage();
    await narrow.setViewportSize({ width: 360, height: 740 });
    await narrow.goto(`${server.url}/dashboard/developers/webhooks/${webhookId}/deliveries/${redelivery}`);
    await narrow.locator('.notice.redelivery').waitFor();
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(narrow, 'developers-delivery-detail-360');
    await expectAccessible(narrow, 'a delivery at 360 px');
    await page.context().close();
    await server.rest('DELETE', `/v1/webhooks/${webhookId}`, { key });
  }, 120_000);

  it('lists events newest first, filtered by type and by record, each opening to its data', async () => {
    const made = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'events@example.test', firstName: 'Eve' },
    });
    expect(made.status, made.text).toBe(201);
    const contactId = made.body.id as string;
    for (const lastName of ['One', 'Two']) {
      const changed = await server.rest('PUT', `/v1/crm/contacts/${contactId}`, { key, body: { lastName } });
      expect(changed.status, changed.text).toBe(200);
    }
    const page = await openDashboard(browser, server.url, admin, '/dashboard/developers/events');
    await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    await page.locator('.event-list > li').first().waitFor();
    await expectAccessible(page, 'events');

    await page.getByLabel('Type').selectOption('contact.updated');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.waitForURL(/type=contact\.updated/);
    await expect
      .poll(async () => [
        ...new Set(
          await page
            .locator('.event-list > li')
            .evaluateAll((items) => items.map((item) => item.getAttribute('data-event-type'))),
        ),
      ])
      .toEqual(['contact.updated']);
    const api = await server.rest('GET', '/v1/events?type=contact.updated&sort=-createdAt&limit=25', { key });
    expect(api.status, api.text).toBe(200);
    await expect(page.locator('.event-list > li').count()).resolves.toBe(api.body.data.length);
    // Newest first: the last change on top, with its data and a link to the record.
    const newest = page.locator('.event-list > li').first();
    await newest.locator('summary').click();
    await expect(newest.locator('pre').textContent()).resolves.toContain('"lastName": "Two"');
    expect(await newest.getByRole('link', { name: 'Open the record' }).getAttribute('href')).toBe(
      `/dashboard/crm/contacts/${contactId}`,
    );
    await screenshot(page, 'developers-events');
    await expectAccessible(page, 'events, one open');

    await newest.getByRole('link', { name: 'Every event of this record' }).click();
    await page.waitForURL(new RegExp(`objectId=${contactId}`));
    await expect.poll(() => page.locator('.event-list > li').count()).toBe(3);
    await expect(page.getByLabel('Record id').inputValue()).resolves.toBe(contactId);
    await page.getByLabel('Type').selectOption('deal.closed');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByText('Nothing matches.').waitFor();
    await page.context().close();
  }, 60_000);

  it('edits an OAuth app: name, description, redirect URIs, scopes, PKCE', async () => {
    const created = await server.rest('POST', '/v1/oauth-apps', {
      key,
      body: {
        name: 'Ledger Link',
        redirectUris: ['https://ledger.example.test/callback'],
        scopes: ['crm:read', 'finance:read'],
      },
    });
    expect(created.status, created.text).toBe(201);
    const page = await openDashboard(browser, server.url, admin, '/dashboard/developers/oauth-apps');
    await page.getByRole('link', { name: 'Edit Ledger Link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Ledger Link' }).waitFor();
    await expect(page.getByLabel('Redirect URIs').inputValue()).resolves.toBe('https://ledger.example.test/callback');
    await expect(page.getByRole('checkbox', { name: /^finance:read / }).isChecked()).resolves.toBe(true);
    await screenshot(page, 'developers-oauth-app-edit');
    await expectAccessible(page, 'OAuth app edit');

    // A redirect URI the API refuses: its message beside the field, which gets focus.
    await page.getByLabel('Redirect URIs').fill('https://ledger.example.test/callback#part');
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.locator('#field-redirectUris-error').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-redirectUris');

    await page.getByLabel('Name').fill('Ledger Link 2');
    await page.getByLabel('Description').fill('Reads the books.');
    await page
      .getByLabel('Redirect URIs')
      .fill('https://ledger.example.test/callback\nhttps://ledger.example.test/other');
    await page.getByRole('checkbox', { name: /^finance:read / }).uncheck();
    await page.getByRole('checkbox', { name: /Require PKCE/ }).uncheck();
    await page.getByRole('button', { name: 'Save app' }).click();
    await page.getByRole('heading', { level: 2, name: 'Ledger Link 2' }).waitFor();
    const stored = await server.rest('GET', `/v1/oauth-apps/${created.body.id}`, { key });
    expect(stored.body).toMatchObject({
      name: 'Ledger Link 2',
      description: 'Reads the books.',
      redirectUris: ['https://ledger.example.test/callback', 'https://ledger.example.test/other'],
      scopes: ['crm:read'],
      requirePkce: false,
      clientType: 'confidential',
    });
    await page.context().close();
  }, 60_000);

  it("selects and clears every event type, or an area's, in the webhook form", async () => {
    const page = await openDashboard(browser, server.url, admin, '/dashboard/developers/webhooks');
    await page.getByRole('button', { name: 'New webhook' }).click();
    const events = page.locator('input[name="events"]');
    await events.first().waitFor();
    const total = await events.count();
    await page.getByRole('button', { name: 'Select all: every event type' }).click();
    await expect(page.locator('input[name="events"]:checked').count()).resolves.toBe(total);
    await page.getByRole('button', { name: 'Clear: CRM events' }).click();
    const crm = await page.getByRole('group', { name: 'CRM', exact: true }).locator('input[name="events"]').count();
    await expect(page.locator('input[name="events"]:checked').count()).resolves.toBe(total - crm);
    await page.getByRole('button', { name: 'Clear: every event type' }).click();
    await expect(page.locator('input[name="events"]:checked').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Select all: HR events' }).click();
    const hrCount = await page.getByRole('group', { name: 'HR', exact: true }).locator('input[name="events"]').count();
    await expect(page.locator('input[name="events"]:checked').count()).resolves.toBe(hrCount);
    await page.getByLabel('URL').fill(`${receiver.url}/hr`);
    await expectAccessible(page, 'webhook form with select all');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'Webhook created' }).waitFor();
    const list = await server.rest('GET', '/v1/webhooks', { key });
    const hr = list.body.data.find((hook: { url: string }) => hook.url === `${receiver.url}/hr`);
    expect(hr.events).toHaveLength(hrCount);
    expect(hr.events).toContain('leave.approved');
    await server.rest('DELETE', `/v1/webhooks/${hr.id}`, { key });
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
