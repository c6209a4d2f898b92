import 'reflect-metadata';
// A resource added to the kit shows up in the dashboard with no dashboard code:
// this file declares one of its own (a gadget: a name, a price, a maker among
// the contacts, a state with two actions), serves it beside the others, gives
// it its table as `npm run migration:create` would, and then uses it in the
// browser as a person would: its link in the CRM navigation, its empty list,
// its generated create form (the contact through the record picker, the price
// in euros), its record page with its actions, a disabled one with the reason,
// the edit form, the gadgets on its maker's page, and its history.
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { ObjectType } from 'type-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event } from '../src/events/event.js';
import { AREA_MODULES } from '../src/graphql/areas.js';
import { contacts } from '../src/graphql/crm/contact/index.js';
import { declaredSchemaGaps, migrationSqlOf } from '../src/graphql/kit/declared-schema.js';
import { defineResource } from '../src/graphql/kit/define-resource.js';
import { oneOf, Public } from '../src/graphql/kit/fields.js';
import { defineInput, optional, required } from '../src/graphql/kit/inputs.js';
import { defineList, filter, searchFilter } from '../src/graphql/kit/list.js';
import type { ResourceModule } from '../src/graphql/kit/module.js';
import { AREAS } from '../src/graphql/kit/resource.js';
import { calendarDate, currency, minorUnits, text } from '../src/graphql/kit/values.js';
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';

const GADGET_STATES = ['active', 'retired'] as const;

@ObjectType({ simpleResolvers: true, description: 'A test-only resource: something made by a contact.' })
class Gadget {
  @Public.id()
  id!: string;

  @Public.text()
  name!: string;

  @Public.money()
  price!: number;

  @Public.text()
  currency!: string;

  @Public.id({ nullable: true })
  makerId!: string | null;

  @Public.date({ nullable: true })
  madeOn!: string | null;

  @Public.of(oneOf(GADGET_STATES))
  status!: string;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}

const gadgets = defineResource({
  type: Gadget,
  idPrefix: 'gdg',
  area: AREAS.crm,
  path: 'gadgets',
  names: { one: 'gadget', many: 'gadgets' },
  input: defineInput('Gadget', {
    name: required(text(100)),
    price: optional(minorUnits, { default: 0, graphql: () => GraphQLSafeInt }),
    currency: required(currency),
    makerId: optional(z.string('must be a contact id')),
    madeOn: optional(calendarDate),
  }),
  list: defineList('Gadget', {
    sort: ['createdAt', 'updatedAt', 'name', 'price'],
    filters: {
      status: filter(z.enum(GADGET_STATES), { description: 'In this state.', where: (p) => `"Gadget".status = ${p}` }),
      makerId: filter(text(100), { description: 'Made by this contact.', where: (p) => `"Gadget"."makerId" = ${p}` }),
      q: searchFilter('Gadget', [{ name: 'name', nullable: false }], {
        schema: text(100),
        description: 'In the name.',
      }),
    },
  }),
  operations: { delete: true },
  references: { makerId: { target: contacts, onDelete: 'set null', inverse: { name: 'gadgets' } } },
  events: {
    created: event('gadget.created', 'A gadget was made.'),
    updated: event('gadget.updated', 'A gadget was changed.'),
    deleted: event('gadget.deleted', 'A gadget was deleted.'),
  },
  lifecycle: {
    field: 'status',
    initial: 'active',
    editableIn: ['active'],
    actions: {
      retire: {
        from: ['active'],
        to: 'retired',
        description: 'Retires it.',
        event: event('gadget.retired', 'Retired.'),
      },
      revive: {
        from: ['retired'],
        to: 'active',
        description: 'Revives it.',
        event: event('gadget.revived', 'Revived.'),
      },
    },
  },
  examples: { create: (n) => ({ name: `Gadget ${n}`, currency: 'EUR' }) },
});

// Served beside the areas' resources, as its area's index would list it: the service, its schema
// and routes are built from the modules when they load, which the server does below.
(AREA_MODULES as unknown as ResourceModule[]).push(gadgets.module);
const { useServer } = await import('./support/fixtures.js');
const { browserTestsRun, expectAccessible, launchBrowser, openDashboard, screenshot } =
  await import('./support/browser.js');
const { createUser } = await import('./support/oauth.js');

const runInBrowser = browserTestsRun('dashboard-kit-resource.test.ts');
const server = useServer({ RATE_LIMIT_MAX: '100000' });
let browser: Browser;
let admin: { email: string; password: string };
let key: string;

beforeAll(async () => {
  if (!runInBrowser) return;
  // Its table, as `npm run migration:create` writes it from the declaration.
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    await client.query(migrationSqlOf(await declaredSchemaGaps(client, [gadgets.resource as never])));
  } finally {
    await client.end();
  }
  const org = await server.org('Gadget Works');
  admin = await createUser(server, org.id, { role: 'admin' });
  key = await org.key(['admin']);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });

describe.runIf(runInBrowser)('a resource the kit adds, in the dashboard', { timeout: 180_000 }, () => {
  it('is listed, created, shown, acted on, edited and related with no dashboard code of its own', async () => {
    const { data } = await server.gql(
      'mutation { createContact(input: { email: "maker@gadgets.test", firstName: "Mo", lastName: "Maker" }) { id } }',
      {},
      { key },
    );
    const makerId = data.createContact.id as string;
    const page = await openDashboard(browser, server.url, admin, '/dashboard');
    page.setDefaultTimeout(15_000);
    const crm = page.getByRole('navigation', { name: 'Dashboard' }).locator('.nav-section', { hasText: 'CRM' });
    await crm.getByRole('link', { name: 'Gadgets', exact: true }).click();
    await heading(page, 'Gadgets');
    await page.getByText('No gadgets yet.').waitFor();
    await expectAccessible(page, 'gadgets, none');

    await page.getByRole('link', { name: 'New gadget' }).click();
    await heading(page, 'New gadget');
    await page.getByLabel('Name').fill('Difference engine');
    await page.getByLabel('Price').fill('1250.50');
    await page.getByLabel('Currency').fill('EUR');
    await page.getByLabel('Made on').fill('2026-03-01');
    await page.getByRole('combobox', { name: 'Maker' }).fill('Mo');
    await page.getByRole('option', { name: /Mo Maker/ }).click();
    await screenshot(page, 'kit-gadget-new');
    await expectAccessible(page, 'new gadget');
    await page.getByRole('button', { name: 'Create gadget' }).click();
    await heading(page, 'Difference engine');
    const id = page.url().split('/').at(-1)!;
    expect(id).toMatch(/^gdg_/);
    const facts = page.locator('dl.facts');
    await poll(() => facts.textContent()).toContain('€1,250.50');
    expect(await facts.getByRole('link', { name: 'Mo Maker' }).getAttribute('href')).toBe(
      `/dashboard/crm/contacts/${makerId}`,
    );
    expect(await facts.locator('.badge').textContent()).toBe('Active');
    expect(await page.getByRole('button', { name: 'Revive' }).getAttribute('aria-disabled')).toBe('true');
    await poll(() => page.locator('.history-list li').first().textContent()).toContain(`Created by ${admin.email}`);

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await heading(page, 'Edit Difference engine');
    await page.getByLabel('Price').fill('99');
    await page.getByRole('button', { name: 'Save gadget' }).click();
    await heading(page, 'Difference engine');
    await poll(() => page.locator('dl.facts').textContent()).toContain('€99.00');

    await page.getByRole('button', { name: 'Retire' }).click();
    await poll(() => page.locator('dl.facts .badge').textContent()).toBe('Retired');
    const retire = page.getByRole('button', { name: 'Retire' });
    expect(await retire.getAttribute('aria-disabled')).toBe('true');
    const reason = await retire.evaluate(
      (element) => document.getElementById(element.getAttribute('aria-describedby')!)?.textContent,
    );
    expect(reason).toBe('Only an active gadget can be retired; this one is retired.');
    await screenshot(page, 'kit-gadget');
    await expectAccessible(page, 'gadget, retired');
    const { data: after } = await server.gql(
      'query ($id: ID!) { gadget(id: $id) { name price status makerId } }',
      { id },
      { key },
    );
    expect(after.gadget).toEqual({ name: 'Difference engine', price: 9900, status: 'retired', makerId });

    // Its maker's page lists it; its list filters by state.
    await page.goto(`${server.url}/dashboard/crm/contacts/${makerId}`);
    await heading(page, 'Mo Maker');
    const related = page.locator('section', { has: page.getByRole('heading', { name: 'Gadgets' }) });
    await related.getByRole('link', { name: 'Difference engine' }).waitFor();
    await page.goto(`${server.url}/dashboard/crm/gadgets`);
    await heading(page, 'Gadgets');
    await page.getByLabel('Status').selectOption('retired');
    await page.locator('tbody tr', { hasText: 'Difference engine' }).waitFor();
    await page.getByLabel('Status').selectOption('active');
    await page.getByText('Nothing matches.').waitFor();
    await page.context().close();
  });
});
