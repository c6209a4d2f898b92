import { afterAll, beforeAll, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { useServer } from '../support/fixtures.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { createUser, type TestUser } from '../support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;
let admin: TestUser;
beforeAll(async () => {
  const org = await server.org('Smoke');
  admin = await createUser(server, org.id, { role: 'admin' });
  const key = await org.key(['admin']);
  for (const name of ['Zed', 'Mia', 'Bob']) {
    await server.gql('mutation ($input: CreateContactInput!) { createContact(input: $input) { id } }', {
      input: { email: `${name.toLowerCase()}@list.test`, lastName: name, company: 'Listco' },
    }, { key });
  }
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

it('smoke', { timeout: 120_000 }, async () => {
  const page = await (await browser.newContext()).newPage();
  page.on('console', (m) => console.log('CONSOLE', m.type(), m.text()));
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message, e.stack));
  await page.goto(server.url + (process.env.SMOKE_PATH ?? '/dashboard/crm/contacts'));
  await signIn(page, admin);
  await page.waitForTimeout(3000);
  console.log((await page.locator('main thead').innerHTML()).slice(0, 3000));
});
