// The resource contract: one table, one entry per resource, and the promises
// every resource of /v1 keeps whatever it holds. Authentication (401 with a
// Bearer challenge), scopes (403 naming the scope), tenancy (another
// organization's record is 404 and never listed), ids (malformed ones are 404),
// pagination (bounds and arithmetic), bodies (unknown fields are 400, read-only
// ones ignored), the OpenAPI document (every answer matches it), events
// (data.object is the record as GET shows it) and GraphQL (the same objects).
// The resource-specific rules live in each resource's own tests.
import { beforeAll, describe, expect, it } from 'vitest';
import { ID_PREFIX } from '../src/ids.js';
import {
  expectError,
  expectForbidden,
  expectUnauthorized,
  OpenApiResponses,
  operationsOf,
  scopesLacking,
  sharedFields,
  unservedOf,
  type Operation,
  type ResourceAction,
  type Send,
} from './support/contract.js';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';
import { contractResources } from './support/contract-resources.js';
import { SCOPES } from '../src/auth/scopes.js';
import { EVENT_TYPES } from '../src/events/catalogue.js';
import { enumValueName } from '../src/graphql/kit/enum-names.js';

/** GraphQL's enum names of scopes and event types (`crm_read`) back to the values REST shows (`crm:read`). */
const WIRE = new Map([...SCOPES, ...EVENT_TYPES].map((value) => [enumValueName(value), value]));
function asRest(record: Body): Body {
  const wire = (values: unknown) => (values as string[]).map((value) => WIRE.get(value) ?? value);
  return {
    ...record,
    ...(Array.isArray(record.scopes) && { scopes: wire(record.scopes) }),
    ...(Array.isArray(record.events) && { events: wire(record.events) }),
  };
}

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
const RESOURCES = contractResources(server);

type Body = Record<string, unknown> & { id: string };

let openApi: OpenApiResponses;

beforeAll(async () => {
  const res = await server.rest('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  openApi = new OpenApiResponses(res.body);
});

const v1 = (path: string) => `/v1${path}`;
const idsOf = (res: TestResponse): string[] => res.body.data.map((item: Body) => item.id);

describe.each(RESOURCES)('$name', (resource) => {
  const { path, scopes, idPrefix } = resource;
  let n = 0;
  /** This organization's records are the ones the tests look at. */
  let home: TestOrg;
  /** Every scope the resource needs. */
  let key: string;
  let withoutRead: string;
  let withoutWrite: string;
  /** Another organization's admin: every scope, the wrong tenant. */
  let foreign: string;

  beforeAll(async () => {
    home = await server.org();
    key = await home.key([scopes.read, scopes.write]);
    withoutRead = await home.key(scopesLacking(scopes.read));
    withoutWrite = await home.key(scopesLacking(scopes.write));
    foreign = await (await server.org()).key(['admin']);
  });

  /** What a create with this key needs made first (nothing for most resources). */
  async function prepared(withKey = key): Promise<Record<string, string>> {
    const send: Send = (method, at, body) => server.rest(method, v1(at), { key: withKey, body });
    return resource.create.prepare ? resource.create.prepare(send, withKey) : {};
  }

  /** A valid create body for this key's organization. */
  async function createBody(withKey = key): Promise<Body> {
    return resource.create.body(++n, await prepared(withKey)) as Body;
  }

  /** A valid body of the action for `withKey`'s organization (the records it names made there). */
  async function actionBody(action: ResourceAction, withKey = key): Promise<Body | undefined> {
    return action.prepare ? ((await action.prepare(withKey)) as Body) : (action.body as Body | undefined);
  }

  /** Every operation aimed at `id`, with create and action bodies that work for `withKey`'s organization. */
  async function operations(id: string, withKey = key): Promise<Operation[]> {
    const all = operationsOf(resource, id, ++n, await prepared(withKey));
    for (const action of resource.actions.filter((a) => a.prepare)) {
      all.find((operation) => operation.name === action.name)!.body = await actionBody(action, withKey);
    }
    return all;
  }

  async function create(withKey = key): Promise<Body> {
    const res = await server.rest('POST', v1(path), { key: withKey, body: await createBody(withKey) });
    expect(res.status, res.text).toBe(resource.create.status);
    return res.body;
  }

  async function get(id: string, withKey = key): Promise<Body> {
    const res = await server.rest('GET', v1(`${path}/${id}`), { key: withKey });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  /** Every record the key lists, walking all pages. */
  async function listAll(withKey = key): Promise<Body[]> {
    const items: Body[] = [];
    for (let page = 1; ; page++) {
      const res = await server.rest('GET', v1(`${path}?limit=100&page=${page}`), { key: withKey });
      expect(res.status, res.text).toBe(200);
      items.push(...res.body.data);
      if (page >= res.body.pagination.pages) return items;
    }
  }

  /**
   * What a refused request must leave as it was: the ids listed and the record.
   * (Not whole list items: an API key's lastUsedAt changes when the test uses it.)
   */
  async function snapshot(id: string) {
    return { ids: (await listAll()).map((item) => item.id), record: await get(id) };
  }

  const send = (operation: Operation, withKey: string | undefined) =>
    server.rest(operation.method, v1(operation.path), { key: withKey, body: operation.body });

  describe('authentication', () => {
    it('answers 401 UNAUTHORIZED with a Bearer challenge on every operation, without a key or with a garbage one', async () => {
      const record = await create();
      // Made before the snapshot: what a create body needs may add records here (an employee's salary is compensation).
      const all = await operations(record.id);
      const before = await snapshot(record.id);
      for (const operation of all) {
        for (const bad of [undefined, 'garbage', `bpk_${'x'.repeat(40)}`]) {
          const res = await send(operation, bad);
          expectUnauthorized(res);
        }
      }
      expect(await snapshot(record.id)).toEqual(before);
    });
  });

  describe('scopes', () => {
    it('answers 403 FORBIDDEN naming the read scope to a key with every other scope', async () => {
      const record = await create();
      const reads = (await operations(record.id)).filter((op) => op.method === 'GET');
      for (const operation of reads) expectForbidden(await send(operation, withoutRead), scopes.read);
    });

    it('answers 403 FORBIDDEN naming the write scope to a key with every other scope, and changes nothing', async () => {
      const record = await create();
      const writes = (await operations(record.id)).filter((op) => op.method !== 'GET');
      const before = await snapshot(record.id);
      expect(writes.length).toBeGreaterThan(0);
      for (const operation of writes) expectForbidden(await send(operation, withoutWrite), scopes.write);
      expect(await snapshot(record.id)).toEqual(before);
    });

    it('serves every operation to a key with just its scope, answering what the OpenAPI document says', async () => {
      for (const { name } of operationsOf(resource, 'any', ++n)) {
        // Each on a record of its own: an action may end the record (a rotated key is revoked).
        const operation = (await operations((await create()).id)).find((op) => op.name === name)!;
        const { method, documented } = operation;
        const res = await send(operation, await home.key([operation.scope]));
        expect(res.status, `${method} ${operation.path}: ${res.text}`).toBe(operation.status);
        expect(openApi.documents(method, documented), `${method} ${documented} is documented`).toBe(true);
        if (operation.status === 204) expect(res.text).toBe('');
        else openApi.expectMatches(method, documented, res);
      }
    });
  });

  describe('tenancy', () => {
    it("answers 404 NOT_FOUND to another organization's admin for get, update, delete and every action, as for an absent id", async () => {
      const record = await create();
      const before = await get(record.id);
      const absent = `${idPrefix}_${'0'.repeat(26)}`;
      for (const operation of (await operations(record.id)).filter((op) => op.byId)) {
        const res = await send(operation, foreign);
        expectError(res, 404, 'NOT_FOUND');
        expect(res.text).not.toContain(record.id);
        const missing = await send({ ...operation, path: operation.path.replace(record.id, absent) }, foreign);
        expect(res.body, operation.name).toEqual(missing.body);
      }
      expect(await get(record.id)).toEqual(before);
    });

    it("never lists another organization's records", async () => {
      const record = await create();
      const own = await create(foreign);
      const listed = await server.rest('GET', v1(`${path}?limit=100`), { key: foreign });
      expect(listed.status).toBe(200);
      expect(listed.body.pagination.pages).toBe(1);
      expect(idsOf(listed)).toContain(own.id);
      expect(idsOf(listed)).not.toContain(record.id);
      expect(listed.text).not.toContain(record.id);
      expect((await listAll()).map((item) => item.id)).not.toContain(own.id);
    });
  });

  describe('ids', () => {
    it('answers 404 NOT_FOUND for a malformed id on every operation that takes one', async () => {
      const record = await create();
      const otherPrefix = Object.values(ID_PREFIX).find((prefix) => prefix !== idPrefix)!;
      const malformed = [
        'nope',
        // A real id with another kind's prefix.
        `${otherPrefix}_${record.id.slice(idPrefix.length + 1)}`,
        // The right prefix, 27 characters after it.
        `${idPrefix}_${'0'.repeat(27)}`,
        `${record.id}0`,
      ];
      for (const id of malformed) {
        for (const operation of operationsOf(resource, id, ++n).filter((op) => op.byId)) {
          expectError(await send(operation, key), 404, 'NOT_FOUND');
        }
      }
      expect(record.id).toMatch(new RegExp(`^${idPrefix}_[0-9a-z]{26}$`));
    });
  });

  describe('pagination', () => {
    it('answers 400 naming page or limit when out of bounds', async () => {
      for (const [query, field] of [
        ['page=0', 'page'],
        ['page=abc', 'page'],
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
      ] as const) {
        const res = await server.rest('GET', v1(`${path}?${query}`), { key });
        expectError(res, 400, 'VALIDATION_ERROR', field);
        expect(res.body.error.message, query).toContain(field);
      }
    });

    it('counts every record once across pages; a page past the end is empty with the true pagination', async () => {
      // An organization of its own: its count is exactly what this test made (and its keys, for API keys).
      const org = await server.org();
      const counting = await org.key([scopes.read, scopes.write]);
      // The bodies first: what they need may add records here (an employee's salary is compensation).
      const bodies: Body[] = [];
      for (let i = 0; i < 5; i++) bodies.push(await createBody(counting));
      const baseline = (await server.rest('GET', v1(path), { key: counting })).body.pagination.total as number;
      const created: string[] = [];
      for (const body of bodies) {
        const res = await server.rest('POST', v1(path), { key: counting, body });
        expect(res.status, res.text).toBe(resource.create.status);
        created.push(res.body.id);
      }
      const total = baseline + created.length;
      const pages = Math.ceil(total / 2);

      const first = await server.rest('GET', v1(path), { key: counting });
      expect(first.body.pagination).toEqual({
        page: 1,
        limit: 50,
        total,
        pages: Math.ceil(total / 50),
        totalExact: true,
        next: total > 50 ? expect.any(String) : null,
      });

      const walked: string[] = [];
      for (let page = 1; page <= pages; page++) {
        const res = await server.rest('GET', v1(`${path}?limit=2&page=${page}`), { key: counting });
        expect(res.status).toBe(200);
        expect(res.body.pagination).toEqual({
          page,
          limit: 2,
          total,
          pages,
          totalExact: true,
          next: page < pages ? expect.any(String) : null,
        });
        expect(res.body.data).toHaveLength(Math.min(2, total - (page - 1) * 2));
        walked.push(...idsOf(res));
      }
      expect(new Set(walked).size).toBe(total);
      expect(walked).toEqual(expect.arrayContaining(created));

      const past = await server.rest('GET', v1(`${path}?limit=2&page=${pages + 1}`), { key: counting });
      expect(past.status).toBe(200);
      expect(past.body).toEqual({
        data: [],
        pagination: { page: pages + 1, limit: 2, total, pages, totalExact: true, next: null },
      });

      // By cursor, newest first: the same records, once each, following the Link header.
      const byCursor: string[] = [];
      let next: string | undefined = v1(`${path}?limit=2&sort=-createdAt`);
      while (next) {
        const res = await server.rest('GET', next, { key: counting });
        expect(res.status, res.text).toBe(200);
        byCursor.push(...idsOf(res));
        next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1];
        expect(byCursor.length).toBeLessThanOrEqual(total);
      }
      expect(byCursor).toEqual([...walked].reverse());
    });
  });

  describe('bodies', () => {
    it('answers 400 naming an unknown field, and writes nothing', async () => {
      const record = await create();
      const writes = (await operations(record.id)).filter((op) => op.method !== 'GET');
      const before = await snapshot(record.id);
      for (const operation of writes) {
        if (operation.method === 'DELETE') continue;
        const res = await send({ ...operation, body: { ...operation.body, notAField: 1 } }, key);
        expectError(res, 400, 'VALIDATION_ERROR', 'notAField');
      }
      expect(await snapshot(record.id)).toEqual(before);
    });

    // Issue 23: never accepted and ignored. A create takes none; an update takes the record's own values.
    it("refuses the read-only id, createdAt and updatedAt at another value than the record's (400 naming it)", async () => {
      const readOnly = { id: `${idPrefix}_${'0'.repeat(26)}`, createdAt: '2000-01-01T00:00:00.000Z', updatedAt: 'x' };
      for (const [field, value] of Object.entries(readOnly)) {
        const refused = await server.rest('POST', v1(path), {
          key,
          body: { ...(await createBody()), [field]: value },
        });
        expectError(refused, 400, 'VALIDATION_ERROR', field);
      }
      const created = await server.rest('POST', v1(path), { key, body: await createBody() });
      expect(created.status, created.text).toBe(resource.create.status);
      if (!resource.update) return;
      const at = v1(`${path}/${created.body.id}`);
      for (const [field, value] of Object.entries(readOnly)) {
        const refused = await server.rest('PUT', at, { key, body: { ...resource.update.body, [field]: value } });
        expectError(refused, 400, 'VALIDATION_ERROR', field);
      }
      const own = { id: created.body.id, createdAt: created.body.createdAt, updatedAt: created.body.updatedAt };
      const updated = await server.rest('PUT', at, { key, body: { ...resource.update.body, ...own } });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.id).toBe(created.body.id);
      expect(updated.body.createdAt).toBe(created.body.createdAt);
    });
  });

  const unique = resource.unique ?? [];
  if (unique.length) {
    describe('unique fields', () => {
      it('answers 409 CONFLICT naming the field when another record holds its value, on create and update, and writes nothing', async () => {
        const taken = await create();
        const other = await create();
        const before = await snapshot(other.id);
        for (const { field, message, updatable } of unique) {
          const body = { ...(await createBody()), [field]: taken[field] };
          const created = await server.rest('POST', v1(path), { key, body });
          expectError(created, 409, 'CONFLICT', field);
          expect(created.body.error.message).toBe(message);
          if (!updatable) continue;
          const at = v1(`${path}/${other.id}`);
          const updated = await server.rest('PUT', at, { key, body: { [field]: taken[field] } });
          expectError(updated, 409, 'CONFLICT', field);
          expect(updated.body.error.message).toBe(message);
        }
        expect(await snapshot(other.id)).toEqual(before);
      });
    });
  }

  describe('answers', () => {
    it('create, get, update and every action answer as the OpenAPI document says, and agree with GET', async () => {
      const created = await server.rest('POST', v1(path), { key, body: await createBody() });
      expect(created.status, created.text).toBe(resource.create.status);
      openApi.expectMatches('POST', path, created);
      expect(created.body.id).toMatch(new RegExp(`^${idPrefix}_[0-9a-z]{26}$`));
      const fetched = await server.rest('GET', v1(`${path}/${created.body.id}`), { key });
      openApi.expectMatches('GET', `${path}/{id}`, fetched);
      const [fromCreate, fromGet] = sharedFields(created.body, fetched.body);
      expect(fromCreate).toEqual(fromGet);

      if (resource.update) {
        const updated = await server.rest('PUT', v1(`${path}/${created.body.id}`), { key, body: resource.update.body });
        expect(updated.status, updated.text).toBe(200);
        openApi.expectMatches('PUT', `${path}/{id}`, updated);
        expect(updated.body).toMatchObject(resource.update.body);
        expect(updated.body).toEqual(await get(created.body.id));
      }

      for (const action of resource.actions) {
        const record = await create();
        const body = await actionBody(action);
        const res = await server.rest('POST', v1(`${path}/${record.id}/${action.name}`), { key, body });
        expect(res.status, `${action.name}: ${res.text}`).toBe(action.status);
        openApi.expectMatches('POST', `${path}/{id}/${action.name}`, res);
        if (action.answers === 'the record') {
          expect(res.body.id).toBe(record.id);
          expect(res.body).toEqual(await get(record.id));
        } else {
          expect(res.body.id).not.toBe(record.id);
          expect(res.body.id).toMatch(new RegExp(`^${idPrefix}_[0-9a-z]{26}$`));
          const [fromAction, fromGet] = sharedFields(res.body, await get(res.body.id));
          expect(fromAction).toEqual(fromGet);
        }
      }

      const listed = await server.rest('GET', v1(`${path}?limit=100`), { key });
      openApi.expectMatches('GET', path, listed);
    });

    it('shows a record alike in the list, at GET and as data.object of its latest event', async () => {
      const record = await create();
      // The events of a resource are readable with its read scope (admin for system events).
      const expectAlike = async (event: string | null) => {
        const fetched = await get(record.id);
        expect((await listAll()).find((item) => item.id === record.id)).toEqual(fetched);
        if (!event) return;
        const events: { type: string; data: { object: Body } }[] = [];
        for (let page = 1; ; page++) {
          const res = await server.rest('GET', v1(`/events?limit=100&page=${page}`), { key });
          expect(res.status, res.text).toBe(200);
          events.push(...res.body.data);
          if (page >= res.body.pagination.pages) break;
        }
        const latest = events.filter((e) => e.data.object.id === record.id).at(-1);
        expect(latest?.type).toBe(event);
        expect(latest?.data.object).toEqual(fetched);
      };
      await expectAlike(resource.create.event);
      if (resource.update) {
        const res = await server.rest('PUT', v1(`${path}/${record.id}`), { key, body: resource.update.body });
        expect(res.status, res.text).toBe(200);
        await expectAlike(resource.update.event);
      }
    });

    if (resource.delete) {
      it('DELETE answers 204 with an empty body; the record is then 404 and unlisted', async () => {
        const record = await create();
        const res = await server.rest('DELETE', v1(`${path}/${record.id}`), { key });
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
        expectError(await server.rest('GET', v1(`${path}/${record.id}`), { key }), 404, 'NOT_FOUND');
        expect((await listAll()).map((item) => item.id)).not.toContain(record.id);
      });
    }

    for (const method of unservedOf(resource)) {
      it(`${method} ${path}/:id is not served: 405 METHOD_NOT_ALLOWED with Allow, and undocumented`, async () => {
        const record = await create();
        const res = await server.rest(method, v1(`${path}/${record.id}`), { key, body: {} });
        expectError(res, 405, 'METHOD_NOT_ALLOWED');
        const allowed = (res.headers.get('allow') ?? '').split(/,\s*/);
        expect(allowed).toContain('GET');
        expect(allowed).not.toContain(method);
        expect(openApi.documents(method, `${path}/{id}`)).toBe(false);
      });
    }
  });

  const graphql = resource.graphql;
  if (graphql) {
    describe('GraphQL', () => {
      it(`${graphql.list} and ${graphql.get} give the objects REST gives`, async () => {
        // An organization of its own, so that its whole list is one page.
        const own = await (await server.org()).key([scopes.read, scopes.write]);
        const record = await create(own);
        const rest = await get(record.id, own);
        // Scalar fields: the REST object's keys are the selection; a declared resource's
        // lists of objects (a payroll run's items, their lines) need their subfields, from the declaration.
        const fields = graphql.selection ?? Object.keys(rest).join(' ');
        // Fields needing a scope the key lacks (an employee's salary): absent from REST, null in GraphQL.
        const hidden = graphql.hidden ?? [];
        const shown = (object: Body) => {
          for (const field of hidden) expect(object[field], field).toBeNull();
          return Object.fromEntries(Object.entries(object).filter(([field]) => !hidden.includes(field)));
        };
        let topLevel = fields;
        while (/ \{[^{}]*\}/.test(topLevel)) topLevel = topLevel.replace(/ \{[^{}]*\}/g, '');
        expect(topLevel.split(' ').filter((field) => !hidden.includes(field))).toEqual(Object.keys(rest));
        const one = await server.gql(
          `query ($id: ID!) { ${graphql.get}(id: $id) { ${fields} } }`,
          { id: record.id },
          { key: own },
        );
        expect(one.errors, one.text).toBeUndefined();
        expect(shown(asRest(one.data[graphql.get]))).toEqual(rest);

        const query = `{ ${graphql.list}(limit: 100) { data { ${fields} } pagination { page limit total pages totalExact next } } }`;
        const list = await server.gql(query, undefined, { key: own });
        expect(list.errors, list.text).toBeUndefined();
        const restList = await server.rest('GET', v1(`${path}?limit=100`), { key: own });
        const page = list.data[graphql.list];
        expect(page.pagination).toEqual(restList.body.pagination);
        expect(page.pagination.pages).toBe(1);
        expect(page.data.map((item: Body) => item.id)).toEqual(idsOf(restList));
        // Whole objects for the record: the key listing (an API key) may get a new lastUsedAt meanwhile.
        expect(shown(asRest(page.data.find((item: Body) => item.id === record.id)))).toEqual(rest);
      });

      it("keeps another organization's record out, and names a missing scope", async () => {
        const record = await create();
        const one = await server.gql(
          `query ($id: ID!) { ${graphql.get}(id: $id) { id } }`,
          { id: record.id },
          {
            key: foreign,
          },
        );
        expect(one.errors?.[0]?.extensions?.code, one.text).toBe('NOT_FOUND');
        const list = await server.gql(`{ ${graphql.list}(limit: 100) { data { id } } }`, undefined, { key: foreign });
        expect(list.errors, list.text).toBeUndefined();
        expect(list.data[graphql.list].data.map((item: Body) => item.id)).not.toContain(record.id);

        const refused = await server.gql(`{ ${graphql.list} { data { id } } }`, undefined, { key: withoutRead });
        expect(refused.errors?.[0]?.extensions?.code, refused.text).toBe('FORBIDDEN');
        expect(refused.errors?.[0]?.message).toContain(scopes.read);
      });
    });
  }
});
