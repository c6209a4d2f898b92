import 'reflect-metadata';
// GET /v1/openapi.json as a client generator or API explorer uses it: public,
// a valid OpenAPI 3.1 document, describing every route the server answers, and
// describing the bodies the server really sends.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionPath } from '../src/graphql/kit/lifecycle.js';
import { requiredReferences } from '../src/graphql/kit/examples.js';
import { actionsOf } from '../src/graphql/kit/resource.js';
import { isWellFormedIdWith } from '../src/ids.js';
import { declared, referencedResource } from './support/examples.js';
import { useServer } from './support/fixtures.js';

// ajv-formats is CommonJS: its default export arrives wrapped or not depending on the loader.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

/* eslint-disable @typescript-eslint/no-explicit-any */
const server = useServer();
let key: string;
let doc: any;

const BASE = 'https://docs.example.test/openapi.json';
let ajv: Ajv2020;

/** A validator for one component schema, resolving its $refs within the document. */
function componentValidator(name: string): ValidateFunction {
  const validate = ajv.getSchema(`${BASE}#/components/schemas/${name}`);
  if (!validate) throw new Error(`no component schema ${name}`);
  return validate;
}

function expectValid(name: string, value: unknown) {
  const validate = componentValidator(name);
  const valid = validate(value);
  expect(validate.errors ?? [], `${name}: ${JSON.stringify(value)}`).toEqual([]);
  expect(valid).toBe(true);
}

/** Follows a local $ref ("#/components/schemas/X") to what it names. */
function deref(value: any): any {
  if (value && typeof value === 'object' && typeof value.$ref === 'string') {
    const ref: string = value.$ref;
    expect(ref.startsWith('#/')).toBe(true);
    return ref
      .slice(2)
      .split('/')
      .reduce((node: any, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return value;
}

const jsonSchemaOf = (response: any) => response?.content?.['application/json']?.schema;
/** POSTs whose body is a file (an upload): no JSON body, no Idempotency-Key replay (the file is not kept to compare). */
const UPLOADS = new Set(['/imports']);

beforeAll(async () => {
  key = await (await server.org()).key(['crm:read', 'crm:write']);
  const res = await server.rest('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: BASE, components: doc.components });
});

/** Every REST route and its methods, as served when this was written. */
const KNOWN_ROUTES: Record<string, string[]> = {
  '/api-keys': ['get', 'post'],
  '/api-keys/{id}': ['get'],
  '/api-keys/{id}/revoke': ['post'],
  '/api-keys/{id}/rotate': ['post'],
  '/crm/contacts': ['get', 'post'],
  '/crm/contacts/{id}': ['delete', 'get', 'put'],
  '/crm/deals': ['get', 'post'],
  '/crm/deals/{id}': ['delete', 'get', 'put'],
  '/events': ['get'],
  '/changes': ['get'],
  '/events/{id}': ['get'],
  '/exports': ['get', 'post'],
  '/exports/{id}': ['get'],
  '/exports/{id}/download': ['get'],
  '/imports': ['get', 'post'],
  '/imports/{id}': ['get'],
  '/imports/template': ['get'],
  '/finance/expenses': ['get', 'post'],
  '/finance/expenses/{id}': ['get', 'put'],
  '/finance/expenses/{id}/approve': ['post'],
  '/finance/expenses/{id}/reimburse': ['post'],
  '/finance/expenses/{id}/reject': ['post'],
  '/finance/expenses/{id}/submit': ['post'],
  '/finance/credit-notes/{id}/pdf': ['get'],
  '/hr/attendance': ['get', 'post'],
  '/hr/attendance/{id}': ['delete', 'get', 'put'],
  '/hr/attendance/{id}/clock-out': ['post'],
  '/hr/employees': ['get', 'post'],
  '/hr/employees/{id}': ['get', 'put'],
  '/hr/employees/{id}/compensation': ['get'],
  '/hr/employees/{id}/reinstate': ['post'],
  '/hr/employees/{id}/terminate': ['post'],
  '/hr/employees/{id}/leave-balances': ['get'],
  '/hr/compensation': ['get', 'post'],
  '/hr/compensation/{id}': ['delete', 'get', 'put'],
  '/hr/pay-components': ['get', 'post'],
  '/hr/pay-components/{id}': ['delete', 'get', 'put'],
  '/hr/payroll-runs': ['get', 'post'],
  '/hr/payroll-runs/{id}': ['delete', 'get', 'put'],
  '/hr/payroll-runs/{id}/payslips/{employeeId}': ['get'],
  '/hr/payroll-runs/{id}/process': ['post'],
  '/hr/payroll-runs/{id}/recalculate': ['post'],
  '/hr/leave-requests': ['get', 'post'],
  '/hr/leave-requests/{id}': ['get', 'put'],
  '/hr/leave-requests/{id}/approve': ['post'],
  '/hr/leave-requests/{id}/cancel': ['post'],
  '/hr/leave-requests/{id}/reject': ['post'],
  '/finance/invoices': ['get', 'post'],
  '/finance/invoices/{id}': ['get', 'put'],
  '/finance/invoices/{id}/open': ['post'],
  '/finance/invoices/{id}/pdf': ['get'],
  '/finance/invoices/{id}/void': ['post'],
  '/finance/payments': ['get', 'post'],
  '/finance/payments/{id}': ['get'],
  '/finance/payments/{id}/allocate': ['post'],
  '/finance/payments/{id}/refund': ['post'],
  '/finance/reports/receivables-aging': ['get'],
  '/openapi.json': ['get'],
  '/organization': ['get', 'put'],
  '/oauth-apps': ['get', 'post'],
  '/oauth-apps/{id}': ['delete', 'get', 'put'],
  '/oauth-apps/{id}/rotate-secret': ['post'],
  '/users': ['get', 'post'],
  '/users/{id}': ['delete', 'get', 'put'],
  '/webhooks': ['get', 'post'],
  '/webhooks/{id}': ['delete', 'get', 'put'],
  '/webhooks/{id}/deliveries': ['get'],
  '/webhooks/{id}/deliveries/{deliveryId}': ['get'],
  '/webhooks/{id}/deliveries/{deliveryId}/retry': ['post'],
  '/webhooks/{id}/redeliver': ['post'],
  '/webhooks/{id}/rotate-secret': ['post'],
  '/webhooks/{id}/test': ['post'],
};

describe('GET /v1/openapi.json', () => {
  it('is served as JSON without credentials', async () => {
    const res = await server.rest('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ openapi: expect.stringMatching(/^3\.1\.\d+$/), info: expect.any(Object) });
    // A bad credential does not stand in the way of the public document either.
    const withBadKey = await server.rest('GET', '/v1/openapi.json', { key: 'bpk_wrong' });
    expect(withBadKey.status).toBe(200);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
  });

  it('has component schemas that are valid JSON Schema 2020-12 (the dialect of OpenAPI 3.1)', () => {
    const meta = new Ajv2020({ strict: false });
    addFormats(meta);
    const invalid: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, object>)) {
      if (!meta.validateSchema(schema)) invalid[name] = meta.errors;
    }
    expect(invalid).toEqual({});
  });

  it('names the /v1 base address as its server', () => {
    expect(doc.servers).toHaveLength(1);
    const url = new URL(doc.servers[0].url);
    expect(url.protocol).toBe('http:');
    expect(url.pathname).toBe('/v1');
  });

  it('lists every REST route, each secured by the bearer scheme but the document itself', () => {
    const operations = Object.fromEntries(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).map(([path, item]) => [
        path,
        Object.keys(item)
          .filter((m) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(m))
          .sort(),
      ]),
    );
    // A declared resource added since this list was written is expected as its declaration says.
    const added = Object.fromEntries(
      declared()
        .filter((resource) => !(resource.fullPath in KNOWN_ROUTES))
        .flatMap((resource) => {
          const path = resource.fullPath;
          const byId = ['get', ...(resource.operations.update ? ['put'] : [])];
          if (resource.operations.delete) byId.unshift('delete');
          return [
            [path, resource.input ? ['get', 'post'] : ['get']],
            [`${path}/{id}`, byId],
            ...Object.keys(actionsOf(resource)).map((name) => [`${path}/{id}/${actionPath(name)}`, ['post']]),
          ];
        }),
    );
    expect(operations).toEqual({ ...KNOWN_ROUTES, ...added });

    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const operationIds = new Set<string>();
    // The document is public (it describes itself with no security requirement).
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    operationIds.add(doc.paths['/openapi.json'].get.operationId);
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (path === '/openapi.json') continue;
      for (const [method, operation] of Object.entries(item)) {
        // An API key or an access token (bearerAuth); the access token got through OAuth (oauth2).
        expect(operation.security, `${method} ${path}`).toEqual([
          { bearerAuth: expect.any(Array) },
          { oauth2: operation.security[0].bearerAuth },
        ]);
        expect(operation.operationId).toEqual(expect.any(String));
        operationIds.add(operation.operationId);
        for (const status of ['401', '429', '503']) {
          expect(jsonSchemaOf(operation.responses[status]), `${method} ${path} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          });
        }
        if (path.includes('{id}')) {
          expect(operation.parameters).toContainEqual(
            expect.objectContaining({ name: 'id', in: 'path', required: true }),
          );
        }
      }
    }
    expect(operationIds.size).toBe(Object.values(operations).flat().length);
    // Scopes as the decisions give them.
    expect(doc.paths['/crm/contacts'].get.security[0]).toEqual({ bearerAuth: ['crm:read'] });
    expect(doc.paths['/crm/contacts'].post.security[0]).toEqual({ bearerAuth: ['crm:write'] });
    expect(doc.paths['/crm/contacts/{id}'].delete.security[0]).toEqual({ bearerAuth: ['crm:write'] });
  });

  it('names each operation as a person would name the call: unique camelCase', () => {
    const ids = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId as string),
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(?:[A-Z][a-z0-9]*)*$/);
    const idOf = (method: string, path: string) => doc.paths[path][method].operationId;
    expect(idOf('get', '/crm/contacts')).toBe('listContacts');
    expect(idOf('post', '/crm/contacts')).toBe('createContact');
    expect(idOf('get', '/crm/contacts/{id}')).toBe('getContact');
    expect(idOf('put', '/crm/contacts/{id}')).toBe('updateContact');
    expect(idOf('delete', '/crm/contacts/{id}')).toBe('deleteContact');
    expect(idOf('post', '/hr/attendance/{id}/clock-out')).toBe('clockOutAttendanceRecord');
    expect(idOf('post', '/webhooks/{id}/rotate-secret')).toBe('rotateWebhookSecret');
    expect(idOf('get', '/api-keys')).toBe('listApiKeys');
    expect(idOf('get', '/webhooks/{id}/deliveries')).toBe('listWebhookDeliveries');
    expect(idOf('get', '/exports/{id}/download')).toBe('downloadExport');
  });

  it("declares the headers the answers carry: RateLimit-*, Retry-After, Idempotent-Replayed, a dry run's and a list page's Link", () => {
    const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
    expect(Object.keys(doc.components.headers).sort()).toEqual(
      [
        'Idempotent-Replayed',
        'Link',
        'Preference-Applied',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Retry-After',
        'Would-Raise',
      ].sort(),
    );
    for (const header of Object.values(doc.components.headers as Record<string, any>)) {
      expect(header.schema).toEqual(expect.objectContaining({ type: expect.any(String) }));
    }
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (path === '/openapi.json') continue;
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          const where = `${method} ${path} ${status}`;
          for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
            expect(response.headers?.[name], where).toEqual(ref(name));
          }
          if (status === '429' || status === '503')
            expect(response.headers['Retry-After'], where).toEqual(ref('Retry-After'));
          else expect(response.headers['Retry-After'], where).toBeUndefined();
          if (method === 'post' && /^2/.test(status) && !UPLOADS.has(path)) {
            expect(response.headers['Idempotent-Replayed'], where).toEqual(ref('Idempotent-Replayed'));
          }
          if (method !== 'post') expect(response.headers['Idempotent-Replayed'], where).toBeUndefined();
          // A write's answer may be a dry run's (Prefer: dry-run); a read's never is.
          const upload = operation.requestBody && !('application/json' in operation.requestBody.content);
          if (method !== 'get' && !upload && /^2/.test(status)) {
            expect(response.headers['Preference-Applied'], where).toEqual(ref('Preference-Applied'));
            expect(response.headers['Would-Raise'], where).toEqual(ref('Would-Raise'));
          }
          if (method === 'get') expect(response.headers['Preference-Applied'], where).toBeUndefined();
          // A list's page links the next one; nothing else does.
          const list = method === 'get' && operation.parameters?.some((p: { name: string }) => p.name === 'after');
          if (list && status === '200') expect(response.headers.Link, where).toEqual(ref('Link'));
          else expect(response.headers.Link, where).toBeUndefined();
        }
      }
    }
  });

  it('the declared headers are the ones the server sends', async () => {
    const listed = await server.rest('GET', '/v1/crm/contacts', { key });
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
      expect(listed.headers.get(name), name).toMatch(/^\d+$/);
    }
    const headers = { 'Idempotency-Key': `declared-${Date.now()}` };
    const body = { email: `replayed-${Date.now()}@example.com` };
    const first = await server.rest('POST', '/v1/crm/contacts', { key, body, headers });
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const again = await server.rest('POST', '/v1/crm/contacts', { key, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('names each request body as a component without the fields only answers show; an action takes its input only', () => {
    const bodyOf = (method: string, path: string) => jsonSchemaOf(doc.paths[path][method].requestBody);
    const expected: [string, string, string][] = [
      ['post', '/crm/contacts', 'ContactCreate'],
      ['put', '/crm/contacts/{id}', 'ContactUpdate'],
      ['post', '/finance/invoices', 'InvoiceCreate'],
      ['put', '/finance/invoices/{id}', 'InvoiceUpdate'],
      ['post', '/hr/employees/{id}/terminate', 'EmployeeTerminate'],
      ['post', '/hr/attendance/{id}/clock-out', 'AttendanceClockOut'],
      ['post', '/api-keys', 'ApiKeyCreate'],
      ['post', '/webhooks/{id}/redeliver', 'WebhookRedeliver'],
    ];
    for (const [method, path, name] of expected) {
      expect(bodyOf(method, path), `${method} ${path}`).toEqual({ $ref: `#/components/schemas/${name}` });
    }
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!operation.requestBody) continue;
        if (UPLOADS.has(path)) {
          expect(operation.requestBody.content['application/json'], `${method} ${path}`).toBeUndefined();
          continue;
        }
        const body = deref(jsonSchemaOf(operation.requestBody));
        for (const [name, field] of Object.entries(body.properties as Record<string, any>)) {
          expect(field.readOnly, `${method} ${path} ${name}`).toBeUndefined();
        }
        const action = method === 'post' && path.includes('{');
        if (action) expect(body.additionalProperties, `${method} ${path}`).toBe(false);
      }
    }
    // An action's body names only its input: none of the record's fields.
    const terminate = deref(bodyOf('post', '/hr/employees/{id}/terminate'));
    expect(Object.keys(terminate.properties)).toEqual(['endDate']);
    expect(terminate.propertyNames).toBeUndefined();
    expect(bodyOf('post', '/finance/invoices/{id}/open')).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
    const invoiceCreate = deref(bodyOf('post', '/finance/invoices'));
    for (const shown of ['total', 'status', 'subtotal', 'id']) expect(invoiceCreate.properties[shown]).toBeUndefined();
  });

  it("shows each declared resource's examples on its request bodies, each valid against the body's schema", () => {
    const shown: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const media = operation.requestBody?.content?.['application/json'];
        for (const [name, example] of Object.entries((media?.examples ?? {}) as Record<string, any>)) {
          // Component references are relative to the document: absolute for Ajv, as componentValidator's.
          const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', `"${BASE}#/components/`));
          const validate = ajv.compile(schema);
          const where = `${method} ${path} example ${name}`;
          expect(validate(example.value), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
          shown.push(`${method} ${path}`);
        }
      }
    }
    // Each create and update, and each action whose example the declaration gives (none elsewhere).
    const expected = declared().flatMap((resource) => [
      `post ${resource.fullPath}`,
      ...(resource.operations.update ? [`put ${resource.fullPath}/{id}`] : []),
      ...Object.keys(resource.examples?.actions ?? {}).map(
        (name) => `post ${resource.fullPath}/{id}/${actionPath(name)}`,
      ),
    ]);
    expect(shown.sort()).toEqual(expected.sort());
  });

  it('fills the references a create example needs with ids of the kind each names', () => {
    for (const resource of declared()) {
      const example = doc.paths[resource.fullPath].post.requestBody.content['application/json'].examples.create.value;
      for (const field of requiredReferences(resource)) {
        const prefix = referencedResource(resource, field).idPrefix;
        expect(isWellFormedIdWith(prefix, example[field]), `${resource.fullPath} ${field}: ${example[field]}`).toBe(
          true,
        );
      }
    }
  });

  it('documents the OAuth flows whose access tokens the API takes', () => {
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: expect.stringMatching(/\/oauth\/authorize$/),
          tokenUrl: expect.stringMatching(/\/oauth\/token$/),
          scopes: expect.objectContaining({ 'crm:read': expect.any(String), admin: expect.any(String) }),
        },
        clientCredentials: { tokenUrl: expect.stringMatching(/\/oauth\/token$/) },
      },
    });
  });

  it('documents Idempotency-Key on every POST but an upload, and only there', () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const header = (operation.parameters ?? []).find((p: { name: string }) => p.name === 'Idempotency-Key');
        if (method === 'post' && !UPLOADS.has(path))
          expect(header, `${method} ${path}`).toMatchObject({ in: 'header', required: false });
        else expect(header, `${method} ${path}`).toBeUndefined();
      }
    }
  });

  it('documents page and limit (1 to 100) on the lists', () => {
    for (const path of ['/crm/contacts', '/events']) {
      const parameters: any[] = doc.paths[path].get.parameters;
      const page = parameters.find((p) => p.name === 'page');
      const limit = parameters.find((p) => p.name === 'limit');
      expect(page, path).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1 } });
      expect(limit, path).toMatchObject({
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 100 },
      });
      expect(limit.schema.default).toBe(50);
      expect(page.schema.default).toBe(1);
    }
  });

  it('requires email in the create body and answers with Contact and Error schemas', () => {
    const create = doc.paths['/crm/contacts'].post;
    expect(create.requestBody.required).toBe(true);
    // A named component holding the fields a create sets, none the answer only shows.
    expect(jsonSchemaOf(create.requestBody)).toEqual({ $ref: '#/components/schemas/ContactCreate' });
    const body = deref(jsonSchemaOf(create.requestBody));
    expect(body.type).toBe('object');
    expect(body.required).toEqual(['email']);
    const fields = Object.keys(body.properties);
    expect(fields.sort()).toEqual(
      ['company', 'email', 'firstName', 'lastName', 'paymentTermsDays', 'phone', 'tags'].sort(),
    );
    // Read-only fields are accepted at their current values (DECISIONS): named, not typed; any other name is refused.
    expect(body.propertyNames.enum.sort()).toEqual([...fields, 'createdAt', 'id', 'updatedAt'].sort());
    expect(body.description).toMatch(/read-only fields \(`id`, `createdAt`, `updatedAt`\)/);

    const contactRef = { $ref: '#/components/schemas/Contact' };
    const errorRef = { $ref: '#/components/schemas/Error' };
    expect(jsonSchemaOf(create.responses['201'])).toEqual(contactRef);
    expect(jsonSchemaOf(create.responses['400'])).toEqual(errorRef);
    expect(jsonSchemaOf(create.responses['409'])).toEqual(errorRef);
    expect(jsonSchemaOf(doc.paths['/crm/contacts/{id}'].get.responses['200'])).toEqual(contactRef);
    expect(jsonSchemaOf(doc.paths['/crm/contacts/{id}'].get.responses['404'])).toEqual(errorRef);
    expect(jsonSchemaOf(doc.paths['/crm/contacts/{id}'].put.responses['200'])).toEqual(contactRef);
    expect(doc.paths['/crm/contacts/{id}'].delete.responses['204']).toBeDefined();
    expect(jsonSchemaOf(doc.paths['/crm/contacts/{id}'].delete.responses['204'])).toBeUndefined();

    const page = deref(jsonSchemaOf(doc.paths['/crm/contacts'].get.responses['200']));
    expect(page.required).toEqual(expect.arrayContaining(['data', 'pagination']));
    expect(page.properties.data.items).toEqual(contactRef);
    const pagination = deref(page.properties.pagination);
    expect(pagination.required).toEqual(expect.arrayContaining(['page', 'limit', 'total', 'pages']));

    const contact = deref(contactRef);
    expect(Object.keys(contact.properties)).toEqual(
      expect.arrayContaining(['id', 'firstName', 'lastName', 'email', 'company', 'phone', 'tags', 'createdAt']),
    );
    const error = deref(errorRef);
    expect(Object.keys(error.properties.error.properties)).toEqual(
      expect.arrayContaining(['code', 'message', 'field', 'retryAfter']),
    );
  });
});

describe('the documented schemas against real answers', () => {
  it('a created, fetched, updated and listed contact matches Contact and ContactPage', async () => {
    const created = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.com',
        company: 'Navy',
        phone: '+1 555 0100',
        tags: ['cobol'],
      },
    });
    expect(created.status).toBe(201);
    expectValid('Contact', created.body);

    const fetched = await server.rest('GET', `/v1/crm/contacts/${created.body.id}`, { key });
    expect(fetched.status).toBe(200);
    expectValid('Contact', fetched.body);

    const sparse = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'sparse@example.com' } });
    expect(sparse.status).toBe(201);
    expectValid('Contact', sparse.body);

    const updated = await server.rest('PUT', `/v1/crm/contacts/${created.body.id}`, {
      key,
      body: { phone: null, tags: [] },
    });
    expect(updated.status).toBe(200);
    expectValid('Contact', updated.body);

    const listed = await server.rest('GET', '/v1/crm/contacts?limit=100', { key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThanOrEqual(2);
    expectValid('ContactPage', listed.body);
  });

  it('the schema rejects what the server would never send', () => {
    expect(componentValidator('Contact')({ id: 'con_1', email: 'x@example.com' })).toBe(false);
    expect(componentValidator('Error')({ error: { message: 'no code' } })).toBe(false);
  });

  it('error answers match Error', async () => {
    const missing = await server.rest('GET', '/v1/crm/contacts/con_missing', { key });
    expect(missing.status).toBe(404);
    expectValid('Error', missing.body);

    const invalid = await server.rest('POST', '/v1/crm/contacts', { key, body: { firstName: 'No email' } });
    expect(invalid.status).toBe(400);
    expectValid('Error', invalid.body);
    expect(invalid.body.error.field).toBe('email');

    const unauthorized = await server.rest('GET', '/v1/crm/contacts');
    expect(unauthorized.status).toBe(401);
    expectValid('Error', unauthorized.body);
  });

  it('the server enforces the documented limit bounds', async () => {
    expect((await server.rest('GET', '/v1/crm/contacts?limit=100', { key })).status).toBe(200);
    for (const query of ['limit=101', 'limit=0']) {
      const res = await server.rest('GET', `/v1/crm/contacts?${query}`, { key });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'limit' });
    }
    const page = await server.rest('GET', '/v1/crm/contacts?page=0', { key });
    expect(page.status).toBe(400);
    expect(page.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'page' });
  });
});
