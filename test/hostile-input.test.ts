// Input PostgreSQL cannot store or a router cannot decode gets a clear 4xx in
// the envelope, never a 500, and nothing is written.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg } from './support/fixtures.js';

const server = useServer();
let org: TestOrg;
let key: string;

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['crm:read', 'crm:write']);
});

describe('NUL characters', () => {
  it.each(['firstName', 'lastName', 'company'])('in %s of a create are a 400 naming the field', async (field) => {
    const res = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: `nul-${field}@example.com`, [field]: 'a\u0000b' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field });
  });

  it('in a tag or an update are a 400 naming the field', async () => {
    const tag = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'nul-tag@example.com', tags: ['ok', 'b\u0000d'] },
    });
    expect(tag.status).toBe(400);
    expect(tag.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'tags.1' });
    const created = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'clean@example.com' } });
    const update = await server.rest('PUT', `/v1/crm/contacts/${created.body.id}`, {
      key,
      body: { company: '\u0000' },
    });
    expect(update.status).toBe(400);
    expect(update.body.error.field).toBe('company');
    expect(await server.prisma.contact.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it.each(['q', 'email', 'company', 'tag'])('in the %s filter are a 400 naming it', async (name) => {
    const res = await server.rest('GET', `/v1/crm/contacts?${name}=a%00b`, { key });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: name });
  });

  it('in an id are simply not found, over REST and GraphQL', async () => {
    for (const path of ['/v1/crm/contacts/con_%00', '/v1/events/evt_%00']) {
      const res = await server.rest('GET', path, { key });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const res = await server.gql('query ($id: ID!) { contact(id: $id) { id } }', { id: 'con_\u0000' }, { key });
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('malformed URLs and ids', () => {
  it('answers a path that is not valid percent-encoding with 400', async () => {
    const res = await server.rest('GET', '/v1/crm/contacts/%ZZ', { key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('answers ids of the wrong kind or length with 404', async () => {
    const created = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'kind@example.com' } });
    const asEvent = created.body.id.replace(/^con_/, 'evt_');
    for (const id of [asEvent, 'x'.repeat(5000), `${created.body.id}x`, created.body.id.toUpperCase()]) {
      const res = await server.rest('GET', `/v1/crm/contacts/${id}`, { key });
      expect(res.status).toBe(404);
    }
    expect((await server.rest('GET', `/v1/crm/contacts/${created.body.id}`, { key })).status).toBe(200);
  });
});
