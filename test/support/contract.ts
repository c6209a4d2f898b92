// The resource contract: what every resource of /v1 promises whatever it holds
// (authentication, scopes, tenancy, ids, pagination, body hygiene, the OpenAPI
// document, events, GraphQL). A system resource joins test/contract.test.ts with
// one ResourceContract entry, a declared one by itself (contractOf reads its
// declaration); this file holds the entry's shape and the helpers.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { SCOPES, type Scope } from '../../src/auth/scopes.js';
import { createExample } from '../../src/graphql/kit/examples.js';
import { scopedFieldsOf, selectionOf } from '../../src/graphql/kit/fields.js';
import { actionsOf, type Resource } from '../../src/graphql/kit/resource.js';
import type { EventType } from '../../src/events/event.js';
import { actionBody, actionsOfNew, referencedRecords, uniqueFieldsOf, type RecordMaker } from './examples.js';
import type { TestResponse } from './fixtures.js';

type Body = Record<string, unknown>;

/** A request under /v1 with the key of the organization a record is made in. */
export type Send = (method: HttpMethod, path: string, body?: Body) => Promise<TestResponse>;

/** What a create body needs made first in the same organization (an attendance record's employee): ids by name. */
export type Prepare = (send: Send, key: string) => Promise<Record<string, string>>;

export interface ResourceContract {
  /** How the suite names it: 'contacts'. */
  name: string;
  /** The collection under /v1: '/crm/contacts'. */
  path: string;
  /** The prefix of its ids (its declaration's idPrefix): 'con'. */
  idPrefix: string;
  /** What GET needs, and what POST, PUT, DELETE and the actions need. */
  scopes: { read: Scope; write: Scope };
  create: {
    /**
     * A valid body, different for every n so that unique fields stay unique;
     * `prepared`: what `prepare` made for it (empty when only the body's shape matters).
     */
    body: (n: number, prepared: Record<string, string>) => Body;
    /** Makes what each create needs first, in the organization of the key that creates. */
    prepare?: Prepare;
    status: 201;
    /** The event a create emits with the record as data.object; null: none. */
    event: EventType | null;
  };
  /** PUT /path/:id. null: not served, and the suite expects 405. */
  update: {
    /** A valid change; the answer shows these values. */
    body: Body;
    /** The event an update emits with the record as data.object; null: none. */
    event: EventType | null;
  } | null;
  /** DELETE /path/:id answers 204. false: not served, and the suite expects 405. */
  delete: boolean;
  /** Fields unique in the organization: the 409's message when another record holds the value, and whether PUT sets it. */
  unique?: { field: string; message: string; updatable: boolean }[];
  /** POST /path/:id/<name>, each with the write scope. */
  actions: ResourceAction[];
  /** Root fields of the GraphQL list and get; null: not in GraphQL. */
  /** `selection`: the fields to ask for when not all scalars (default: the REST object's keys). */
  /**
   * `hidden`: fields needing a scope besides the area's (an employee's salary, hr:payroll), which a key with
   * the read and write scopes does not see: absent from REST, null in GraphQL.
   */
  graphql: { list: string; get: string; selection?: string; hidden?: string[] } | null;
}

export interface ResourceAction {
  name: string;
  status: 200 | 201;
  /** What the answer is: the record itself (as GET then shows it), or a new record that replaces it. */
  answers: 'the record' | 'a new record';
  /** A valid body, if the action takes one (its records as sample ids when it names any: see `prepare`). */
  body?: Body;
  /** Makes the records a body names, in the organization of the key: a valid body to send. */
  prepare?: (key: string) => Promise<Body | undefined>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request of a resource's REST surface, aimed at a record (or its collection). */
export interface Operation {
  /** list, get, create, update, delete or the action's name. */
  name: string;
  method: HttpMethod;
  /** Under /v1. */
  path: string;
  /** The route as the OpenAPI document writes it: /crm/contacts/{id}. */
  documented: string;
  body?: Body;
  scope: Scope;
  status: number;
  /** Whether it names a record by id. */
  byId: boolean;
}

/** Every operation the resource serves, aimed at `id`; `n` numbers the create body, made with `prepared`. */
export function operationsOf(
  resource: ResourceContract,
  id: string,
  n: number,
  prepared: Record<string, string> = {},
): Operation[] {
  const { path, scopes } = resource;
  const one = `${path}/${id}`;
  const operations: Operation[] = [
    { name: 'list', method: 'GET', path, documented: path, scope: scopes.read, status: 200, byId: false },
    {
      name: 'get',
      method: 'GET',
      path: one,
      documented: `${path}/{id}`,
      scope: scopes.read,
      status: 200,
      byId: true,
    },
    {
      name: 'create',
      method: 'POST',
      path,
      documented: path,
      body: resource.create.body(n, prepared),
      scope: scopes.write,
      status: resource.create.status,
      byId: false,
    },
  ];
  if (resource.update) {
    operations.push({
      name: 'update',
      method: 'PUT',
      path: one,
      documented: `${path}/{id}`,
      body: resource.update.body,
      scope: scopes.write,
      status: 200,
      byId: true,
    });
  }
  if (resource.delete) {
    operations.push({
      name: 'delete',
      method: 'DELETE',
      path: one,
      documented: `${path}/{id}`,
      scope: scopes.write,
      status: 204,
      byId: true,
    });
  }
  for (const action of resource.actions) {
    operations.push({
      name: action.name,
      method: 'POST',
      path: `${one}/${action.name}`,
      documented: `${path}/{id}/${action.name}`,
      body: action.body,
      scope: scopes.write,
      status: action.status,
      byId: true,
    });
  }
  return operations;
}

/** The methods on /path/:id that the resource does not serve. */
export function unservedOf(resource: ResourceContract): HttpMethod[] {
  return [...(resource.update ? [] : (['PUT'] as const)), ...(resource.delete ? [] : (['DELETE'] as const))];
}

/** Every scope but `scope` and admin (which implies it): a key that lacks exactly that one. */
export function scopesLacking(scope: Scope): Scope[] {
  return SCOPES.filter((s) => s !== scope && s !== 'admin');
}

export function expectError(res: TestResponse, status: number, code: string, field?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(res.body, res.text).toEqual({
    error: { code, message: expect.any(String), ...(field !== undefined && { field }) },
  });
}

export function expectUnauthorized(res: TestResponse): void {
  expectError(res, 401, 'UNAUTHORIZED');
  expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/);
}

export function expectForbidden(res: TestResponse, scope: string): void {
  expectError(res, 403, 'FORBIDDEN');
  expect(res.body.error.message).toContain(scope);
  expect(res.headers.get('www-authenticate')).toBeNull();
}

/** The fields two shapes of one record share (a create answer may add a secret, a GET a usage time). */
export function sharedFields(a: Body, b: Body): [Body, Body] {
  const keys = Object.keys(a).filter((key) => key in b);
  expect(keys).toContain('id');
  const pick = (from: Body) => Object.fromEntries(keys.map((key) => [key, from[key]]));
  return [pick(a), pick(b)];
}

// ajv-formats is CommonJS: its default export arrives wrapped or not depending on the loader.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

const DOCUMENT_URI = 'https://contract.example.test/openapi.json';

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
}

/**
 * Checks answers against the response schema GET /v1/openapi.json documents for
 * their operation (Ajv, JSON Schema 2020-12 with formats, as openapi.test.ts).
 */
export class OpenApiResponses {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    this.ajv.addSchema({ $id: DOCUMENT_URI, components: document.components });
  }

  /** Whether the document lists the operation at all. */
  documents(method: HttpMethod, path: string): boolean {
    return Boolean(this.document.paths[path]?.[method.toLowerCase()]);
  }

  expectMatches(method: HttpMethod, path: string, res: TestResponse): void {
    const where = `${method} ${path} ${res.status}`;
    const validate = this.validator(method, path, res.status);
    expect(validate(res.body), `${where}: ${JSON.stringify(validate.errors)} in ${res.text}`).toBe(true);
  }

  private validator(method: HttpMethod, path: string, status: number): ValidateFunction {
    const id = `${method} ${path} ${status}`;
    let validate = this.validators.get(id);
    if (!validate) {
      const response = this.document.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
      const schema = response?.content?.['application/json']?.schema;
      expect(schema, `${id} has a documented JSON answer`).toBeDefined();
      // Component references are relative to the document: make them absolute for Ajv.
      const absolute = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_URI}#/components/`));
      validate = this.ajv.compile(absolute as object);
      this.validators.set(id, validate);
    }
    return validate;
  }
}

/**
 * The contract entry of a resource declared with the kit (src/graphql/kit/resource.ts),
 * read off its declaration and its examples; `makerFor(key)` makes, in the organization
 * of the key, the records its create and its actions' bodies must name.
 */
export function contractOf(resource: Resource, makerFor: (key: string) => RecordMaker): ResourceContract {
  const { events = {}, examples, lifecycle } = resource;
  if (!examples) throw new Error(`${resource.type.name}: declare its examples (src/graphql/kit/examples.ts)`);
  if (resource.operations.update && !examples.update) {
    throw new Error(`${resource.type.name} serves PUT: give examples.update`);
  }
  // The update's latest event: a move of a state that moves through PUT raises its own after `updated`.
  const moved = lifecycle?.update && examples.update && lifecycle.field in examples.update;
  const reachesFinal = moved && lifecycle.final?.states.includes(examples.update![lifecycle.field] as string);
  const updateEvent =
    (reachesFinal && lifecycle.update!.finalEvent) || (moved && lifecycle.update!.event) || events.updated;
  return {
    name: resource.names.many,
    path: resource.fullPath,
    idPrefix: resource.idPrefix,
    scopes: { read: resource.area.read, write: resource.area.write },
    create: {
      body: (n, prepared) => createExample(resource, n, (field) => prepared[field]!),
      prepare: (_send, key) => referencedRecords(resource, makerFor(key)),
      status: 201,
      event: events.created?.type ?? null,
    },
    update: resource.operations.update ? { body: examples.update!, event: updateEvent?.type ?? null } : null,
    delete: resource.operations.delete,
    // Those a create may give: a number the service alone assigns (a credit note's, when issued) cannot be taken.
    unique: Object.entries(resource.unique ?? {})
      .filter(([field]) => uniqueFieldsOf(resource, 'create').includes(field))
      .map(([field, message]) => ({
        field,
        message,
        updatable: resource.operations.update && uniqueFieldsOf(resource, 'update').includes(field),
      })),
    actions: actionsOfNew(resource).map(({ name, path, body }) => ({
      name: path,
      status: actionsOf(resource)[name]!.status ?? 200,
      answers: 'the record' as const,
      ...(body && { body }),
      ...(resource.examples?.actionReferences?.[name] && {
        prepare: (key: string) => actionBody(resource, name, makerFor(key)),
      }),
    })),
    graphql: {
      list: resource.names.many,
      get: resource.names.one,
      selection: selectionOf(resource.type),
      hidden: scopedFieldsOf(resource.type)
        .filter(({ scope }) => scope !== resource.area.read && scope !== resource.area.write)
        .map(({ name }) => name),
    },
  };
}
