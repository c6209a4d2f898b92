// Contacts through the REST facade, as an integrator's client sees them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';

const server = useServer();
let key: string;

beforeAll(async () => {
  key = await (await server.org()).key(['crm:read', 'crm:write']);
});

const ada = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'Ada@Example.com',
  company: 'Analytical',
  phone: '+44 20 7946 0000',
  tags: ['vip', 'math'],
};

describe('POST /v1/crm/contacts', () => {
  it('creates a contact and answers 201 with the whole record', async () => {
    const res = await server.rest('POST', '/v1/crm/contacts', { key, body: ada });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^con_/),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      company: 'Analytical',
      phone: '+44 20 7946 0000',
      tags: ['vip', 'math'],
      paymentTermsDays: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });
    const fetched = await server.rest('GET', `/v1/crm/contacts/${res.body.id}`, { key });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
  });

  it('rejects a contact without email, naming the field', async () => {
    const res = await server.rest('POST', '/v1/crm/contacts', { key, body: { firstName: 'No', lastName: 'Mail' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  it('rejects an invalid email address', async () => {
    const res = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
  });

  it('answers 409 CONFLICT naming email for a duplicate, whatever its case', async () => {
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'dup@example.com' } });
    const res = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'DUP@example.com' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'CONFLICT', field: 'email' });
  });

  it('rejects unknown fields by name, and read-only ones a create cannot take (issue 23: never ignored)', async () => {
    const unknown = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'u@example.com', favouriteColour: 'red' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'favouriteColour' });

    const readOnly = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'ro@example.com', id: 'con_mine', createdAt: '2000-01-01T00:00:00.000Z', updatedAt: 'x' },
    });
    expect(readOnly.status).toBe(400);
    expect(readOnly.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'id' });
    const made = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'ro@example.com', id: null } });
    expect(made.status, made.text).toBe(201);
  });

  it('rejects wrongly typed fields with the field named', async () => {
    const res = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'typed@example.com', tags: 'vip' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'tags' });
  });

  it('answers malformed JSON, non-object bodies, wrong media types and huge bodies in the envelope', async () => {
    const malformed = await server.rest('POST', '/v1/crm/contacts', { key, body: '{"email": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('VALIDATION_ERROR');

    const array = await server.rest('POST', '/v1/crm/contacts', { key, body: [{ email: 'a@example.com' }] });
    expect(array.status).toBe(400);
    expect(array.body.error.code).toBe('VALIDATION_ERROR');

    const form = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: 'email=a@example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const huge = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'big@example.com', company: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('PUT /v1/crm/contacts/:id', () => {
  it('changes sent fields, keeps omitted ones, clears with null, and answers the whole record', async () => {
    const created = (await server.rest('POST', '/v1/crm/contacts', { key, body: { ...ada, email: 'put@example.com' } }))
      .body;
    const res = await server.rest('PUT', `/v1/crm/contacts/${created.id}`, {
      key,
      body: { company: 'Babbage & Co', tags: ['partner'], phone: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'put@example.com',
      company: 'Babbage & Co',
      tags: ['partner'],
      phone: null,
      createdAt: created.createdAt,
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect((await server.rest('GET', `/v1/crm/contacts/${created.id}`, { key })).body).toEqual(res.body);
  });

  it('refuses to clear the email and rejects unknown fields', async () => {
    const created = (await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'keep@example.com' } })).body;
    const cleared = await server.rest('PUT', `/v1/crm/contacts/${created.id}`, { key, body: { email: null } });
    expect(cleared.status).toBe(400);
    expect(cleared.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'email' });
    const unknown = await server.rest('PUT', `/v1/crm/contacts/${created.id}`, { key, body: { nickname: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ field: 'nickname' });
  });

  it('answers 409 when the new email belongs to another contact', async () => {
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'taken@example.com' } });
    const other = (await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'free@example.com' } })).body;
    const res = await server.rest('PUT', `/v1/crm/contacts/${other.id}`, {
      key,
      body: { email: 'taken@example.com' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'CONFLICT', field: 'email' });
  });

  it('answers 404 for an unknown id', async () => {
    const res = await server.rest('PUT', '/v1/crm/contacts/con_nope', { key, body: { company: 'X' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('DELETE /v1/crm/contacts/:id', () => {
  it('answers 204 with an empty body, then 404', async () => {
    const created = (await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'gone@example.com' } })).body;
    const res = await server.rest('DELETE', `/v1/crm/contacts/${created.id}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await server.rest('GET', `/v1/crm/contacts/${created.id}`, { key })).status).toBe(404);
    expect((await server.rest('DELETE', `/v1/crm/contacts/${created.id}`, { key })).status).toBe(404);
  });
});

describe('unknown routes and methods', () => {
  it('answers 404 and 405 in the envelope', async () => {
    const missing = await server.rest('GET', '/v1/crm/nothing', { key });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const outside = await server.rest('GET', '/nothing');
    expect(outside.status).toBe(404);
    expect(outside.body.error.code).toBe('NOT_FOUND');
    const patch = await server.rest('PATCH', '/v1/crm/contacts', { key, body: {} });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('GET, POST');
  });
});
