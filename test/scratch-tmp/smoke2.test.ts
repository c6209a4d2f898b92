import { afterAll, beforeAll, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { useServer } from '../support/fixtures.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { createUser, type TestUser } from '../support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;
let admin: TestUser;
let id: string;
beforeAll(async () => {
  const org = await server.org('Smoke');
  admin = await createUser(server, org.id, { role: 'admin' });
  const key = await org.key(['admin']);
  const r = await server.gql('mutation { createEmployee(input: { firstName: "Alan", lastName: "Turing", email: "a@t.test", startDate: "2024-01-08" }) { id } }', {}, { key });
  id = r.data.createEmployee.id;
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

it('smoke', { timeout: 120_000 }, async () => {
  const page = await (await browser.newContext()).newPage();
  page.on('console', (m) => console.log('CONSOLE', m.type(), m.text()));
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message, e.stack));
  page.on('request', (r) => r.url().includes('graphql') && console.log('REQ', r.postData()?.slice(0, 400)));
  page.on('response', async (r) => r.url().includes('graphql') && console.log('RES', (await r.text()).slice(0, 300)));
  await page.goto(server.url + '/dashboard/hr/employees/' + id);
  await signIn(page, admin);
  await page.getByRole('button', { name: 'Terminate', exact: true }).click();
  const form = page.getByRole('form', { name: 'Terminate this employee' });
  await form.getByLabel('End date').fill('2025-06-30');
  await form.getByRole('button', { name: 'Terminate employee' }).click();
  await page.waitForTimeout(3000);
  console.log((await page.locator('main').innerText()).slice(0, 1500));
});
