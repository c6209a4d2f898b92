// A resource declared once: its public type (the table is the type's name),
// id prefix, area (the read and write scopes and the REST path), inputs, list,
// unique fields, references to other records, events and lifecycle. From the
// declaration `defineResource` makes the module the service is built from: the
// GraphQL queries and mutations (resource-resolver.ts), the REST rows (routes.ts)
// and the service (resource-service.ts) with its one write path (store.ts).
// What is particular to a resource is written as its rules.
import type { ClassType } from 'type-graphql';
import type { Scope } from '../../auth/scopes.js';
import type { IdKind } from '../../ids.js';
import type { EventType } from '../../jobs/event-types.js';
import type { PublicType } from './fields.js';
import type { AnyResourceInput } from './inputs.js';
import type { Lifecycle, RuleContext } from './lifecycle.js';
import type { AnyListDefinition } from './list.js';

/** An area of the API: its REST path prefix, OpenAPI tag and scopes. */
export interface Area {
  path: string;
  tag: string;
  read: Scope;
  write: Scope;
}

export const AREAS = {
  crm: { path: '/crm', tag: 'CRM', read: 'crm:read', write: 'crm:write' },
  hr: { path: '/hr', tag: 'HR', read: 'hr:read', write: 'hr:write' },
  finance: { path: '/finance', tag: 'Finance', read: 'finance:read', write: 'finance:write' },
} as const satisfies Record<string, Area>;

/** A field naming another record of the organization: anything else is a 400 naming the field. */
export interface Reference {
  table: string;
  idKind: IdKind;
  /** How the message names it: 'contact' ('no contact with this id in the organization'). */
  label: string;
  /**
   * What deleting the record it names does to this one, for the foreign key
   * `npm run migration:create` writes: default 'restrict' (the delete is refused,
   * 409, while records name it: nothing changes or goes without its own event).
   */
  onDelete?: OnDelete;
}

/** A foreign key's ON DELETE: refuse the delete, delete this record too, or clear the field. */
export type OnDelete = 'restrict' | 'cascade' | 'set null';

/** An event a change raises; `previous`: with the previous values of what changed. */
export interface EventSpec {
  type: EventType;
  previous?: boolean;
}

/** A change about to be written: the record as it was (public shape) and the columns that change. */
export interface Change<T> {
  before: T;
  changes: Record<string, unknown>;
}

/** What is particular to a resource: its checks, and what follows from a change. */
export interface Rules<T> {
  /**
   * Checks the record as it would be after a create or update (the values
   * given over the record as it was), without the database; throws a DomainError.
   */
  check?(record: Record<string, unknown>): void;
  /**
   * Checks a create's column values (after defaults) and answers columns to add
   * or replace. Declaring it makes the create a transaction: it may read with
   * `rules.query` (and lock what it reads).
   */
  create?(values: Record<string, unknown>, rules: RuleContext): Promise<Record<string, unknown> | void>;
  /**
   * Runs in the create's transaction once the row exists: writes the records
   * that belong to it (a payroll run's items) and may answer more of its
   * columns. The create's events and answer are written and read after it, so
   * they show what it wrote.
   */
  afterCreate?(record: T, rules: RuleContext): Promise<Record<string, unknown> | void>;
  /** Checks an update in its transaction (the record is locked) and answers more columns to change. */
  update?(change: Change<T>, rules: RuleContext): Promise<Record<string, unknown> | void>;
  /** The events of an update that changed something; default the declared `updated` event. */
  updateEvents?(change: Change<T>): EventSpec[];
}

export interface ResourceDeclaration<T extends object> {
  type: ClassType<T> & PublicType<T>;
  idKind: IdKind;
  area: Area;
  /** The REST path under the area: 'contacts' serves /crm/contacts. */
  path: string;
  /** GraphQL names: one record and the list (default: the type's name lower-cased, and that plus s). */
  names?: { one: string; many: string };
  /** Words for summaries and messages, default from the names: ['contact', 'contacts']. */
  noun?: [string, string];
  /** Create and update; none: the resource is not created through the API. */
  input?: AnyResourceInput;
  list: AnyListDefinition;
  /** Which writes are served besides create; default PUT with an input, no DELETE. */
  operations?: { update?: boolean; delete?: boolean };
  /** Unique fields (per organization) and the 409 message of each. */
  unique?: Record<string, string>;
  references?: Record<string, Reference>;
  /**
   * The events of its changes: a create, a PUT (with previousAttributes) and a
   * DELETE (data.object: the record as it was); `others`: events about the record
   * that another resource's rule raises (invoice.paid, by a payment). A
   * lifecycle's actions name their own. Every change raises one (a test checks).
   */
  events?: { created?: EventType; updated?: EventType; deleted?: EventType; others?: readonly EventType[] };
  lifecycle?: Lifecycle<T>;
  rules?: Rules<T>;
  /** The 409s particular to the resource, per operation (its rules' refusals, records that refer to it), for the OpenAPI document. */
  conflicts?: Partial<Record<'create' | 'update' | 'delete', string>>;
  /** Extra words per operation in the OpenAPI document. */
  descriptions?: Partial<Record<'list' | 'create' | 'get' | 'update' | 'delete', string>>;
}

/** A declaration with its defaults filled in: what the kit's parts read. */
export interface Resource<T extends object = object> extends ResourceDeclaration<T> {
  table: string;
  names: { one: string; many: string };
  noun: [string, string];
  /** /crm/contacts */
  fullPath: string;
  operations: { update: boolean; delete: boolean };
}

const lowerFirst = (name: string) => name[0]!.toLowerCase() + name.slice(1);

export function completeDeclaration<T extends object>(declaration: ResourceDeclaration<T>): Resource<T> {
  const name = declaration.type.name;
  const names = declaration.names ?? { one: lowerFirst(name), many: `${lowerFirst(name)}s` };
  return {
    ...declaration,
    table: name,
    names,
    noun: declaration.noun ?? [names.one.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`), names.many],
    fullPath: `${declaration.area.path}/${declaration.path}`,
    operations: {
      update: declaration.operations?.update ?? declaration.input !== undefined,
      delete: declaration.operations?.delete ?? false,
    },
  };
}

/**
 * Every event type a resource's changes raise, as its declaration names them:
 * create, PUT, DELETE, the lifecycle's moves and actions, and those another
 * resource's rule raises about it (the event catalogue and OpenAPI read them).
 */
export function raisedEvents(resource: Resource): EventType[] {
  const { events, lifecycle } = resource;
  const types = [
    events?.created,
    events?.updated,
    events?.deleted,
    ...(events?.others ?? []),
    lifecycle?.update?.event,
    lifecycle?.update?.finalEvent,
    ...Object.values(lifecycle?.actions ?? {}).map((action) => action.event),
  ];
  return [...new Set(types.filter((type): type is EventType => type !== undefined))];
}
