// A resource declared once: type, id prefix, area, inputs, list, unique fields,
// references, events, lifecycle, and its rules (what is particular to it). From it
// `defineResource` makes the module: GraphQL (resource-resolver.ts), REST rows
// (resource-routes.ts) and the service (resource-service.ts; writes: store.ts).
import type { ClassType } from 'type-graphql';
import type { Principal } from '../../auth/principal.js';
import type { Scope } from '../../auth/scopes.js';
import type { Config } from '../../config.js';
import type { EventDeclaration } from '../../events/event.js';
import type { Examples } from './examples.js';
import type { PublicType } from './fields.js';
import type { SecretDeclaration } from './secrets.js';
import type { AnyResourceInput } from './inputs.js';
import type { Label } from './labels.js';
import {
  actionPath,
  completeLifecycle,
  type Action,
  type Lifecycle,
  type LifecycleDeclaration,
  type RecordAction,
  type RuleContext,
} from './lifecycle.js';
import type { AnyListDefinition } from './list.js';
import { completeReferences, words, type Reference, type ReferenceDeclaration } from './references.js';

/** An area of the API: its REST path prefix, OpenAPI tag and scopes. */
export interface Area {
  path: string;
  tag: string;
  read: Scope;
  write: Scope;
  /** Any valid credential may call its operations (exports); the resource narrows what each sees (`visibleTo`). */
  anyCredential?: boolean;
}

export const AREAS = {
  crm: { path: '/crm', tag: 'CRM', read: 'crm:read', write: 'crm:write' },
  hr: { path: '/hr', tag: 'HR', read: 'hr:read', write: 'hr:write' },
  // Salaries: compensation, pay components and payroll runs (hr:read alone does not see them).
  payroll: { path: '/hr', tag: 'HR', read: 'hr:payroll', write: 'hr:payroll' },
  finance: { path: '/finance', tag: 'Finance', read: 'finance:read', write: 'finance:write' },
} as const satisfies Record<string, Area>;

/** A system resource's area (users, API keys, webhooks, OAuth apps): at the API's root, `admin` to read and write. */
export const systemArea = (tag: string): Area => ({ path: '', tag, read: 'admin', write: 'admin' });

/** A system area open to any valid credential (exports): each record says who sees it (`visibleTo`). */
export const openSystemArea = (tag: string): Area => ({ ...systemArea(tag), anyCredential: true });

/** The records of its organization a caller may see, as a condition on the table (see list-query.ts `narrow`). */
export type Narrowing = { where: (param: string) => string; value: unknown } | undefined;

/** An event a change raises (one the resource declares); `previous`: with the previous values of what changed. */
export interface EventSpec {
  event: EventDeclaration;
  previous?: boolean;
}

/** A change about to be written: the record as it was (public shape) and the columns that change. */
export interface Change<T> {
  before: T;
  changes: Record<string, unknown>;
  /**
   * An update's: every field it gave, those at their current value too (`changes` leaves them out), so a
   * rule can tell a value sent back to keep it from one not sent (an invoice's dueDate pinned while its
   * issueDate moves).
   */
  given?: Record<string, unknown>;
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
   * they show what it wrote. `values`: the create's values, those of the
   * input fields that are not columns (`stored: false`) among them.
   */
  afterCreate?(record: T, rules: RuleContext, values: Record<string, unknown>): Promise<Record<string, unknown> | void>;
  /**
   * Runs before a create's or update's transaction on its values (slow work that needs no
   * database, holding no connection meanwhile: a password's hash); answers the values to write.
   */
  prepare?(values: Record<string, unknown>, config: Config | undefined): Promise<Record<string, unknown>>;
  /**
   * Runs on every update once the record is locked, before the kit compares: may refuse (who may
   * change the record at all, even to what it is) and answers the values as the record would hold them.
   */
  settle?(values: Record<string, unknown>, before: T, rules: RuleContext): Record<string, unknown>;
  /** Checks an update in its transaction (the record is locked) and answers more columns to change. */
  update?(change: Change<T>, rules: RuleContext): Promise<Record<string, unknown> | void>;
  /** The events of an update that changed something; default the declared `updated` event. */
  updateEvents?(change: Change<T>): EventSpec[];
  /** Runs in a DELETE's transaction, the record locked, before it goes (may refuse, or end credentials). */
  delete?(record: T, rules: RuleContext): Promise<void>;
}

export interface ResourceDeclaration<T extends object> {
  type: ClassType<T> & PublicType<T>;
  /** What its ids start with: 'thg' makes `thg_01j…`; each prefix is one resource's (checked at load). */
  idPrefix: string;
  /** Its table, when not named after the type (`OAuthApp` for `OauthApp`). */
  table?: string;
  /** false: its table has no updatedAt column (the store stamps none). */
  updatedAt?: boolean;
  /**
   * A system resource (users, API keys, webhooks, OAuth apps): served by the kit like any
   * other, but none of the business records that exports, imports, the change feed,
   * the dashboard's record pages and the suites' generated requests cover (it is not
   * in declaredResources), and its events are system events (src/events/system-events.ts).
   */
  system?: boolean;
  /**
   * A credential's secret, shown once: the create issues one, and so does each
   * action that says `issuesSecret`; those answer `secret.type` (kit/secrets.ts).
   */
  secret?: SecretDeclaration;
  area: Area;
  /**
   * Which of the organization's records a caller sees (an export: one whose scopes it holds); the list and
   * the lookup are narrowed to them, another is 404 as another organization's. Default: every one.
   */
  visibleTo?(principal: Principal): Narrowing;
  /** The create queues work rather than doing it (an export): REST answers 202 Accepted, not 201. */
  accepted?: boolean;
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
  /** Unique fields (per organization, or across them as a user's email: its index decides) and the 409 message of each. */
  unique?: Record<string, string>;
  /**
   * Fields naming another record of the organization (anything else is a 400
   * naming the field), each as the resource it names: `{ contactId: contacts }`
   * (see references.ts); the relation fields both ways come from it.
   */
  references?: { [K in keyof T & string]?: ReferenceDeclaration };
  /**
   * How a record is named where another refers to it (an export's `contactName`
   * beside `contactId`): default its text field `name`, else `number` (labels.ts).
   */
  label?: Label;
  /**
   * The events of its changes, each declared here once with its description
   * (`event(name, description)`, src/events/event.ts): a create, a PUT (with
   * previousAttributes) and a DELETE (data.object: the record as it was);
   * `others`: events about the record that another resource's rule raises
   * (invoice.paid, by a payment, which uses the declaration). A lifecycle's
   * actions declare their own. Every change raises one (a test checks); the
   * event catalogue (src/events/catalogue.ts) is assembled from these.
   */
  events?: {
    created?: EventDeclaration;
    updated?: EventDeclaration;
    deleted?: EventDeclaration;
    others?: readonly EventDeclaration[];
  };
  lifecycle?: LifecycleDeclaration<T>;
  /**
   * Actions that change a record and move no state (a payment's refund and
   * allocation), served as a lifecycle's are: `POST /<things>/:id/<kebab-name>`
   * and the mutation `<name><Type>`, on any record; each name is one action's,
   * the lifecycle's included.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  actions?: Record<string, RecordAction<T, any>>;
  rules?: Rules<T>;
  /** The 409s particular to the resource, per operation (its rules' refusals, records that refer to it), for the OpenAPI document. */
  conflicts?: Partial<Record<'create' | 'update' | 'delete', string>>;
  /** The 403s particular to the resource, per operation (its rules' refusals), for the OpenAPI document. */
  forbidden?: { create?: string };
  /** Extra words per operation in the OpenAPI document. */
  descriptions?: Partial<Record<'list' | 'create' | 'get' | 'update' | 'delete', string>>;
  /**
   * Valid request bodies (examples.ts): the OpenAPI document shows them, and
   * the contract and conformance suites make and change its records with them.
   */
  examples?: Examples;
}

/** A declaration with its defaults filled in: what the kit's parts read. */
export interface Resource<T extends object = object> extends Omit<ResourceDeclaration<T>, 'references' | 'lifecycle'> {
  table: string;
  names: { one: string; many: string };
  noun: [string, string];
  /** /crm/contacts */
  fullPath: string;
  operations: { update: boolean; delete: boolean };
  references: Record<string, Reference>;
  lifecycle?: Lifecycle<T>;
}

const lowerFirst = (name: string) => name[0]!.toLowerCase() + name.slice(1);

export function completeDeclaration<T extends object>(declaration: ResourceDeclaration<T>): Resource<T> {
  const name = declaration.type.name;
  const names = declaration.names ?? { one: lowerFirst(name), many: `${lowerFirst(name)}s` };
  const resource: Resource<T> = {
    ...declaration,
    table: declaration.table ?? name,
    names,
    noun: declaration.noun ?? [words(names.one), names.many],
    fullPath: `${declaration.area.path}/${declaration.path}`,
    operations: {
      update: declaration.operations?.update ?? declaration.input !== undefined,
      delete: declaration.operations?.delete ?? false,
    },
    references: {},
    lifecycle: declaration.lifecycle && completeLifecycle(declaration.type, declaration.lifecycle),
  };
  const twice = Object.keys(declaration.actions ?? {}).filter((action) => declaration.lifecycle?.actions?.[action]);
  if (twice.length)
    throw new Error(`${name} declares the action ${twice.join(', ')} twice: in its lifecycle and actions`);
  if (declaration.lifecycle?.deletableIn && !resource.operations.delete) {
    throw new Error(`${name}'s lifecycle says deletableIn, but DELETE is not served (operations.delete)`);
  }
  // After the rest: a reference to 'self' names the completed resource.
  resource.references = completeReferences(resource, declaration.references);
  return resource;
}

/**
 * Every event a resource's changes raise, as its declaration names them:
 * create, PUT, DELETE, the lifecycle's moves and actions, and those another
 * resource's rule raises about it (the event catalogue and OpenAPI read them).
 */
export function raisedEvents(resource: Resource): EventDeclaration[] {
  const { events, lifecycle } = resource;
  const types = [
    events?.created,
    events?.updated,
    events?.deleted,
    ...(events?.others ?? []),
    lifecycle?.update?.event,
    lifecycle?.update?.finalEvent,
    ...Object.values(actionsOf(resource)).flatMap((action) => [action.event, action.otherwise?.event]),
  ];
  return [...new Set(types.filter((type): type is EventDeclaration => type !== undefined))];
}

/** Throws unless the resource declares an event of this name: a rule raises only what its resource declares. */
export function requireDeclaredEvent(resource: Resource, type: string): void {
  if (!raisedEvents(resource).some((declared) => declared.type === type)) {
    throw new Error(`${resource.type.name} declares no event '${type}': add it to its events (or its lifecycle)`);
  }
}

/** An action as every part serves it: a lifecycle's has the states it moves between, a record's none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAction<T = any> = RecordAction<T, any> & Partial<Pick<Action<T, any>, 'from' | 'to' | 'otherwise'>>;

/** Every action of the resource by name: its lifecycle's, then those of a record (`actions`). */
export function actionsOf<T extends object>(
  resource: Pick<Resource<T>, 'lifecycle' | 'actions'>,
): Record<string, AnyAction<T>> {
  return { ...resource.lifecycle?.actions, ...resource.actions };
}

/**
 * The fields of the record only actions change (a lifecycle's state, and what
 * each action says it changes), each with the words that say which action to
 * use (for the 400 of a PUT body that sets one).
 */
export function actionOnlyFields(resource: Resource): Record<string, string> {
  const byField = new Map<string, string[]>();
  for (const [name, action] of Object.entries(actionsOf(resource))) {
    const state = action.from && resource.lifecycle ? [resource.lifecycle.field] : [];
    for (const field of [...state, ...(action.changes ?? [])]) {
      byField.set(field, [...(byField.get(field) ?? []), name]);
    }
  }
  return Object.fromEntries(
    [...byField].map(([field, names]) => [
      field,
      `'${field}' is changed only by ${names.length > 1 ? 'the actions' : 'the action'} ${names
        .map((name) => `POST /v1${resource.fullPath}/:id/${actionPath(name)}`)
        .join(', ')}`,
    ]),
  );
}
