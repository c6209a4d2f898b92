import 'reflect-metadata';
// Issue 23, "the document says exactly what the server does", GraphQL's part:
// scopes, event types and credential types are enums; calendar dates are a
// `Date` scalar and both date scalars say what specifies them; a lookup by id
// is nullable; a document that does not parse or validate carries Apollo's
// code; every relation list pages as a root list does. REST keeps its values.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type GraphQLResponse, type TestOrg } from './support/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const server = useServer();
let org: TestOrg;
let admin: string;

beforeAll(async () => {
  org = await server.org();
  admin = await org.key(['admin']);
});

const gql = (query: string, variables: Record<string, unknown> = {}) => server.gql(query, variables, { key: admin });

function ok(res: GraphQLResponse): any {
  expect(res.errors, res.text).toBeUndefined();
  return res.data;
}

/** A type as introspection shows it: `[Scope!]!` and so on. */
function typeName(type: any): string {
  if (type.kind === 'NON_NULL') return `${typeName(type.ofType)}!`;
  if (type.kind === 'LIST') return `[${typeName(type.ofType)}]`;
  return type.name;
}

const TYPE_REF = 'type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';

async function fieldsOf(type: string): Promise<Record<string, { type: string; args: any[] }>> {
  const data = ok(
    await gql(
      `query ($name: String!) { __type(name: $name) {
      fields { name ${TYPE_REF} args { name defaultValue ${TYPE_REF} } } } }`,
      { name: type },
    ),
  );
  return Object.fromEntries(
    data.__type.fields.map((field: any) => [field.name, { type: typeName(field.type), args: field.args }]),
  );
}

describe('enums: scopes, event types, credential types', () => {
  it('are GraphQL enums wherever they appear, their values named with _ for what a name cannot hold', async () => {
    const data = ok(
      await gql(`{
        scope: __type(name: "Scope") { kind enumValues { name } }
        eventType: __type(name: "EventType") { kind enumValues { name } }
        credentialType: __type(name: "CredentialType") { kind enumValues { name } } }`),
    );
    expect(data.scope.kind).toBe('ENUM');
    expect(data.scope.enumValues.map((v: any) => v.name)).toEqual(expect.arrayContaining(['crm_read', 'admin']));
    expect(data.eventType.kind).toBe('ENUM');
    expect(data.eventType.enumValues.map((v: any) => v.name)).toEqual(
      expect.arrayContaining(['contact_created', 'deal_stage_changed', 'api_key_created', 'webhook_test']),
    );
    expect(data.credentialType.kind).toBe('ENUM');
    expect(data.credentialType.enumValues.map((v: any) => v.name).sort()).toEqual(
      ['access_token', 'api_key', 'operator', 'session'].sort(),
    );
    expect((await fieldsOf('Viewer')).scopes!.type).toBe('[Scope!]!');
    expect((await fieldsOf('Viewer')).credentialType!.type).toBe('CredentialType!');
    for (const type of ['ApiKey', 'User', 'OauthApp']) expect((await fieldsOf(type)).scopes!.type).toBe('[Scope!]!');
    expect((await fieldsOf('Webhook')).events!.type).toBe('[EventType!]!');
    expect((await fieldsOf('Event')).type!.type).toBe('EventType!');
    const events = (await fieldsOf('Query')).events!.args.find((arg: any) => arg.name === 'type');
    expect(typeName(events.type)).toBe('EventType');
  });

  it('keep the wire values in REST, both ways, and in what GraphQL stores', async () => {
    const created = ok(
      await gql(`mutation { createApiKey(input: { name: "enum", scopes: [crm_read, hr_read] }) { id scopes } }`),
    );
    expect(created.createApiKey.scopes).toEqual(['crm_read', 'hr_read']);
    const shown = await server.rest('GET', `/v1/api-keys/${created.createApiKey.id}`, { key: admin });
    expect(shown.body.scopes).toEqual(['crm:read', 'hr:read']);

    // REST sends wire values as the operation's variables, and reads them back.
    const viaRest = await server.rest('POST', '/v1/api-keys', {
      key: admin,
      body: { name: 'rest', scopes: ['crm:read'] },
    });
    expect(viaRest.status, viaRest.text).toBe(201);
    expect(viaRest.body.scopes).toEqual(['crm:read']);
    const inGraphQL = ok(await gql(`query ($id: ID!) { apiKey(id: $id) { scopes } }`, { id: viaRest.body.id }));
    expect(inGraphQL.apiKey.scopes).toEqual(['crm_read']);

    const contact = await server.rest('POST', '/v1/crm/contacts', { key: admin, body: { email: 'enum@example.com' } });
    expect(contact.status, contact.text).toBe(201);
    const listed = await server.rest('GET', '/v1/events?type=contact.created', { key: admin });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((event: any) => event.type)).toContain('contact.created');
    expect(new Set(listed.body.data.map((event: any) => event.type))).toEqual(new Set(['contact.created']));
    const filtered = ok(await gql(`{ events(type: contact_created) { data { type } } }`));
    expect(new Set(filtered.events.data.map((event: any) => event.type))).toEqual(new Set(['contact_created']));
    const viewer = ok(await gql(`{ viewer { credentialType scopes } }`));
    expect(viewer.viewer).toEqual({ credentialType: 'api_key', scopes: ['admin'] });
  });
});

describe('dates', () => {
  it('calendar dates are the Date scalar; Date and DateTime say what specifies them', async () => {
    const data = ok(
      await gql(`{
        date: __type(name: "Date") { kind specifiedByURL }
        dateTime: __type(name: "DateTime") { kind specifiedByURL } }`),
    );
    expect(data.date).toEqual({ kind: 'SCALAR', specifiedByURL: expect.stringMatching(/^https:\/\//) });
    expect(data.dateTime).toEqual({ kind: 'SCALAR', specifiedByURL: expect.stringMatching(/^https:\/\//) });
    const invoice = await fieldsOf('Invoice');
    expect(invoice.issueDate!.type).toBe('Date!');
    expect(invoice.dueDate!.type).toBe('Date!');
    expect((await fieldsOf('Employee')).startDate!.type).toBe('Date');
    expect((await fieldsOf('LeaveRequest')).from!.type).toBe('Date!');
    expect((await fieldsOf('Deal')).expectedCloseDate!.type).toBe('Date');
    expect((await fieldsOf('Invoice')).createdAt!.type).toBe('DateTime!');
    const filters = (await fieldsOf('Query')).invoices!.args;
    expect(typeName(filters.find((arg: any) => arg.name === 'from').type)).toBe('Date');
  });

  it('takes and shows YYYY-MM-DD, and refuses anything else naming the field', async () => {
    const create = `mutation ($input: CreateDealInput!) { createDeal(input: $input) { expectedCloseDate } }`;
    const made = ok(await gql(create, { input: { title: 'Dated', currency: 'EUR', expectedCloseDate: '2031-02-28' } }));
    expect(made.createDeal.expectedCloseDate).toBe('2031-02-28');
    for (const bad of ['2031-02-29', '0000-01-01', '2031-1-5', '2031-01-05T00:00:00Z', 20310105]) {
      const res = await gql(create, { input: { title: 'Dated', currency: 'EUR', expectedCloseDate: bad } });
      expect(res.errors?.[0]?.extensions, String(bad)).toMatchObject({
        code: 'VALIDATION_ERROR',
        field: 'expectedCloseDate',
      });
    }
    const literal = await gql(
      `mutation { createDeal(input: { title: "Dated", currency: "EUR", expectedCloseDate: "31/12/2031" }) { id } }`,
    );
    expect(literal.status).toBe(400);
    expect(literal.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('a lookup by id', () => {
  it('is nullable: a missing record is null at its path with NOT_FOUND, the rest of the answer stands', async () => {
    const contact = await server.rest('POST', '/v1/crm/contacts', { key: admin, body: { email: 'here@example.com' } });
    const missing = `con_${'0'.repeat(26)}`;
    const res = await gql(
      `query ($here: ID!, $gone: ID!) { here: contact(id: $here) { id } gone: contact(id: $gone) { id }
        key: apiKey(id: "key_${'0'.repeat(26)}") { id } }`,
      { here: contact.body.id, gone: missing },
    );
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ here: { id: contact.body.id }, gone: null, key: null });
    expect(res.errors?.map((error: any) => [error.path, error.extensions.code])).toEqual([
      [['gone'], 'NOT_FOUND'],
      [['key'], 'NOT_FOUND'],
    ]);
    const lookups = await fieldsOf('Query');
    for (const name of ['contact', 'deal', 'invoice', 'attendanceRecord', 'apiKey', 'user', 'webhook', 'event']) {
      expect(lookups[name]!.type, name).not.toMatch(/!$/);
    }
    // REST still answers 404 for the same lookup.
    const rest = await server.rest('GET', `/v1/crm/contacts/${missing}`, { key: admin });
    expect(rest.status).toBe(404);
    expect(rest.body.error.code).toBe('NOT_FOUND');
  });
});

describe("a document that does not parse or validate carries Apollo's code", () => {
  it('GRAPHQL_PARSE_FAILED and GRAPHQL_VALIDATION_FAILED, with 400', async () => {
    const syntax = await gql(`{ contacts { data { id }`);
    expect(syntax.status).toBe(400);
    expect(syntax.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const invalid = await gql(`{ contacts { data { nope } } }`);
    expect(invalid.status).toBe(400);
    expect(invalid.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    // A variable of the wrong type is the client's input: VALIDATION_ERROR naming it, as in REST.
    const variable = await gql(`query ($limit: Int) { contacts(limit: $limit) { data { id } } }`, { limit: 'ten' });
    expect(variable.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
  });
});

describe('relation lists', () => {
  it('take the same page and limit and answer a page, everywhere', async () => {
    const data = ok(
      await gql(
        `{ __schema { types { name kind fields { name args { name defaultValue ${TYPE_REF} } ${TYPE_REF} } } } }`,
      ),
    );
    const relations: string[] = [];
    for (const type of data.__schema.types) {
      if (type.kind !== 'OBJECT' || ['Query', 'Mutation'].includes(type.name) || type.name.startsWith('__')) continue;
      for (const field of type.fields ?? []) {
        const list = typeName(field.type).startsWith('[') || field.args.length > 0;
        const ofRecords = /Page!$/.test(typeName(field.type)) || field.args.some((arg: any) => arg.name === 'page');
        if (!list || !ofRecords) continue;
        relations.push(`${type.name}.${field.name}`);
        const where = `${type.name}.${field.name}`;
        expect(typeName(field.type), where).toMatch(/^\w+Page!$/);
        const args = Object.fromEntries(field.args.map((arg: any) => [arg.name, arg]));
        expect([typeName(args.page.type), args.page.defaultValue], where).toEqual(['Int', '1']);
        expect([typeName(args.limit.type), args.limit.defaultValue], where).toEqual(['Int', '50']);
      }
    }
    expect(relations).toEqual(
      expect.arrayContaining(['Contact.deals', 'Employee.reports', 'Invoice.payments', 'Webhook.deliveries']),
    );
  });

  it('answer the page asked for with its pagination, as a root list does', async () => {
    const contact = await server.rest('POST', '/v1/crm/contacts', { key: admin, body: { email: 'paged@example.com' } });
    for (const title of ['One', 'Two', 'Three']) {
      const deal = await server.rest('POST', '/v1/crm/deals', {
        key: admin,
        body: { title, currency: 'EUR', contactId: contact.body.id },
      });
      expect(deal.status, deal.text).toBe(201);
    }
    const data = ok(
      await gql(
        `query ($id: ID!) { contact(id: $id) {
          deals(page: 2, limit: 2) { data { title } pagination { page limit total pages } }
          past: deals(page: 5, limit: 2) { data { title } pagination { total pages } } } }`,
        { id: contact.body.id },
      ),
    );
    expect(data.contact.deals).toEqual({
      data: [{ title: 'Three' }],
      pagination: { page: 2, limit: 2, total: 3, pages: 2 },
    });
    expect(data.contact.past).toEqual({ data: [], pagination: { total: 3, pages: 2 } });
  });
});
