// The GraphQL schema through a real client's eyes: Apollo Client (which adds
// `__typename` to every selection, its introspection query's included)
// introspects the schema within the cost limit, finds enumerated fields, sort
// and filter arguments as enums, timestamps as the DateTime scalar and ids as
// ID, and runs typed operations whose enum arguments come as variables.
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  type GraphQLEnumType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';

const server = useServer();

let key: string;

/** Apollo Client as an application makes it: an HTTP link with the Bearer key and a normalising cache. */
function apolloClient(bearer: string) {
  return new ApolloClient({
    link: new HttpLink({ uri: `${server.url}/graphql`, fetch, headers: { authorization: `Bearer ${bearer}` } }),
    cache: new InMemoryCache(),
  });
}

beforeAll(async () => {
  const org = await server.org('Client');
  key = await org.key(['admin']);
});

describe('introspection by Apollo Client', () => {
  let schema: GraphQLSchema;

  beforeAll(async () => {
    // Throws on any error (Apollo's default error policy): a refusal fails here.
    const { data } = await apolloClient(key).query<IntrospectionQuery>({ query: gql(getIntrospectionQuery()) });
    schema = buildClientSchema(data!);
  });

  const enumValues = (name: string) => {
    const type = schema.getType(name);
    expect(isEnumType(type), `${name} is ${type?.toString()}`).toBe(true);
    return (type as GraphQLEnumType).getValues().map((value) => value.name);
  };
  const fieldType = (type: string, field: string) => {
    const object = schema.getType(type) as { getFields(): Record<string, { type: unknown }> };
    return String(object.getFields()[field]!.type);
  };
  const argumentType = (query: string, argument: string) =>
    String(
      schema
        .getQueryType()!
        .getFields()
        [query]!.args.find((arg) => arg.name === argument)?.type,
    );

  it('succeeds within the cost limit, __typename included', () => {
    expect(schema.getQueryType()?.name).toBe('Query');
    expect(Object.keys(schema.getTypeMap()).length).toBeGreaterThan(30);
  });

  it('finds enumerated fields as enums named after the type and field, with the wire values', () => {
    expect(enumValues('DealStage')).toEqual(['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost']);
    expect(enumValues('UserRole')).toEqual(['admin', 'member']);
    expect(enumValues('WebhookStatus')).toEqual(['enabled', 'disabled']);
    expect(fieldType('Deal', 'stage')).toBe('DealStage!');
    expect(fieldType('User', 'role')).toBe('UserRole!');
    expect(fieldType('Webhook', 'status')).toBe('WebhookStatus!');
    // Inputs and filters over those fields take the same enum.
    expect(
      String(
        (schema.getType('CreateDealInput') as { getFields(): Record<string, { type: unknown }> }).getFields().stage!
          .type,
      ),
    ).toBe('DealStage');
    expect(argumentType('deals', 'stage')).toBe('DealStage');
    expect(argumentType('users', 'role')).toBe('UserRole');
    expect(argumentType('webhooks', 'status')).toBe('WebhookStatus');
  });

  it('finds every sort argument as an enum of field and field_desc', () => {
    const lists = Object.values(schema.getQueryType()!.getFields()).filter((field) =>
      field.args.some((arg) => arg.name === 'sort'),
    );
    expect(lists.map((field) => field.name)).toEqual(
      expect.arrayContaining(['contacts', 'deals', 'users', 'webhooks', 'apiKeys', 'oauthApps', 'webhookDeliveries']),
    );
    for (const list of lists) {
      const sort = getNamedType(list.args.find((arg) => arg.name === 'sort')!.type);
      expect(isEnumType(sort), `${list.name}(sort:) is ${sort.name}`).toBe(true);
    }
    expect(argumentType('contacts', 'sort')).toBe('ContactSort');
    expect(enumValues('ContactSort')).toEqual(
      expect.arrayContaining(['createdAt', 'createdAt_desc', 'email', 'email_desc', 'lastName_desc']),
    );
    expect(enumValues('DealSort')).toEqual(expect.arrayContaining(['amount', 'amount_desc', 'stage', 'stage_desc']));
  });

  it('finds timestamps as the DateTime scalar and ids as ID', () => {
    expect(schema.getType('DateTime')?.toString()).toBe('DateTime');
    expect(fieldType('Contact', 'createdAt')).toBe('DateTime!');
    expect(fieldType('Deal', 'closedAt')).toBe('DateTime');
    expect(fieldType('ApiKey', 'expiresAt')).toBe('DateTime');
    expect(fieldType('WebhookDelivery', 'nextAttemptAt')).toBe('DateTime');
    // The specified envelope: `created` is an integer Unix time.
    expect(fieldType('Event', 'created')).toBe('Int!');
    expect(fieldType('Deal', 'contactId')).toBe('ID');
    expect(argumentType('deals', 'contactId')).toBe('ID');
    expect(fieldType('WebhookDispatch', 'eventIds')).toBe('[ID!]!');
  });
});

describe('typed operations', () => {
  const CONTACTS = gql`
    query Contacts($sort: ContactSort, $limit: Int) {
      contacts(sort: $sort, limit: $limit) {
        data {
          id
          email
          createdAt
        }
      }
    }
  `;
  const DEALS = gql`
    query Deals($stage: DealStage, $sort: DealSort) {
      deals(stage: $stage, sort: $sort) {
        data {
          id
          stage
          amount
        }
      }
    }
  `;

  it('sorts by an enum variable and shows the timestamps REST shows', async () => {
    const emails = ['b@client.example', 'c@client.example', 'a@client.example'];
    const rest = [];
    for (const email of emails) {
      const created = await server.rest('POST', '/v1/crm/contacts', { key, body: { email } });
      expect(created.status, created.text).toBe(201);
      rest.push(created.body as { id: string; email: string; createdAt: string });
    }
    type Contacts = { contacts: { data: { id: string; email: string; createdAt: string }[] } };
    const { data } = await apolloClient(key).query<Contacts>({
      query: CONTACTS,
      variables: { sort: 'email_desc', limit: 10 },
    });
    expect(data!.contacts.data.map((contact) => contact.email)).toEqual([...emails].sort().reverse());
    const byId = new Map(data!.contacts.data.map((contact) => [contact.id, contact.createdAt]));
    for (const contact of rest) expect(byId.get(contact.id)).toBe(contact.createdAt);

    // REST keeps its spelling of the same order.
    const listed = await server.rest('GET', '/v1/crm/contacts?sort=-email', { key });
    expect(listed.body.data.map((contact: { email: string }) => contact.email)).toEqual([...emails].sort().reverse());
  });

  it('filters by an enum variable and sorts descending', async () => {
    for (const [title, amount, stage] of [
      ['Small', 100, 'qualified'],
      ['Large', 900, 'qualified'],
      ['Open', 500, 'lead'],
    ] as const) {
      const created = await server.rest('POST', '/v1/crm/deals', {
        key,
        body: { title, amount, stage, currency: 'USD' },
      });
      expect(created.status, created.text).toBe(201);
    }
    type Deals = { deals: { data: { id: string; stage: string; amount: number }[] } };
    const { data } = await apolloClient(key).query<Deals>({
      query: DEALS,
      variables: { stage: 'qualified', sort: 'amount_desc' },
    });
    expect(data!.deals.data.map((deal) => [deal.stage, deal.amount])).toEqual([
      ['qualified', 900],
      ['qualified', 100],
    ]);
  });

  it('refuses a value outside the enum naming the argument', async () => {
    const res = await server.gql(
      'query ($sort: ContactSort) { contacts(sort: $sort) { data { id } } }',
      {
        sort: '-email',
      },
      { key },
    );
    expect(res.status, res.text).toBe(400);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'sort' });
  });
});
