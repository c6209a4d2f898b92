// What the suites read off the declared resources (src/graphql/kit/resource.ts)
// so that a new one needs no entry of its own: valid bodies from its examples,
// the records its required references and its actions' bodies name (made from
// their own resources' examples, taken through the actions the example says),
// and the lifecycle's actions that lead a new record to a state.
import '../../src/graphql/modules.js'; // every area's index: each declaration registers itself on import
import { declaredResources } from '../../src/graphql/kit/declared.js';
import { actionExample, createExample, documentExamples, requiredReferences } from '../../src/graphql/kit/examples.js';
import { actionPath } from '../../src/graphql/kit/lifecycle.js';
import { actionsOf, type Resource } from '../../src/graphql/kit/resource.js';
import type { z } from 'zod';

type Body = Record<string, unknown>;

/** Every declared resource, in the order the service loads them. */
export function declared(): Resource[] {
  return [...declaredResources().values()];
}

/** The declared resource served at a collection path ('/crm/contacts'), if any. */
export function declaredAt(path: string): Resource | undefined {
  return declared().find((resource) => resource.fullPath === path);
}

/** The declared resource whose records a reference field names (an attendance record's employeeId: employees). */
export function referencedResource(resource: Resource, field: string): Resource {
  return resource.references[field]!.target;
}

export interface RecordMaker {
  /** The next number for an example, so that unique fields stay unique in the organization. */
  next(): number;
  /** Creates a record of `resource` with `body` (in the organization the records are for); answers it. */
  make(resource: Resource, body: Body): Promise<Body>;
  /** Runs the action `step` on the record `id` of `resource` (a success, or the test fails). */
  act(resource: Resource, id: string, step: Step): Promise<void>;
}

/** A new record of `target` from its example, taken through the actions `through`: its id. */
async function madeThrough(target: Resource, through: readonly string[], maker: RecordMaker): Promise<string> {
  const record = await maker.make(target, await createBody(target, maker.next(), maker));
  const id = record.id as string;
  for (const name of through) await maker.act(target, id, stepOf(target, name));
  return id;
}

/** A new record for each required reference of `resource`'s create, from its target's example: ids by field. */
export async function referencedRecords(resource: Resource, maker: RecordMaker): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const field of requiredReferences(resource)) {
    const through = resource.examples?.references?.[field]?.through ?? [];
    ids[field] = await madeThrough(referencedResource(resource, field), through, maker);
  }
  return ids;
}

/** A valid body of the action `name`: its example, each record it names a new one (`actionReferences`). */
export async function actionBody(resource: Resource, name: string, maker: RecordMaker): Promise<Body | undefined> {
  const ids: Record<string, string> = {};
  for (const [field, { target, through = [] }] of Object.entries(resource.examples?.actionReferences?.[name] ?? {})) {
    ids[field] = await madeThrough(target.resource, through, maker);
  }
  return actionExample(resource, name, (field) => ids[field]!);
}

/** A valid create body: the example numbered `n`, with new records for its required references. */
export async function createBody(resource: Resource, n: number, maker: RecordMaker): Promise<Body> {
  const ids = await referencedRecords(resource, maker);
  return createExample(resource, n, (field) => ids[field]!);
}

/** The unique fields a create or an update body sets (a field fixed at creation is no update's). */
export function uniqueFieldsOf(resource: Resource, body: 'create' | 'update'): string[] {
  const schema = resource.input?.[body] as z.ZodObject | undefined;
  return Object.keys(resource.unique ?? {}).filter((field) => schema && field in schema.shape);
}

/** An action as a request: POST <record>/<path> with its example body, if it has one. */
export interface Step {
  name: string;
  /** The REST path segment: clock-out. */
  path: string;
  /** The document's example: a record it names is a sample id (`actionBody` makes real ones). */
  body?: Body;
}

/** The request of the action `name`, with its example body. */
export function stepOf(resource: Resource, name: string): Step {
  const body = documentExamples(resource).actions[name];
  return { name, path: actionPath(name), ...(body && { body }) };
}

/** The actions a new record can take: a record's, and the lifecycle's whose `from` holds the initial state. */
export function actionsOfNew(resource: Resource): Step[] {
  return Object.entries(actionsOf(resource))
    .filter(([, action]) => !action.from || action.from.includes(resource.lifecycle!.initial))
    .map(([name]) => stepOf(resource, name));
}

/**
 * The fewest actions that take a new record to a state `wanted` accepts (none
 * when the initial state does); undefined when no action leads there.
 */
export function stepsTo(resource: Resource, wanted: (state: string) => boolean): Step[] | undefined {
  const lifecycle = resource.lifecycle;
  if (!lifecycle) return undefined;
  const queue: [string, Step[]][] = [[lifecycle.initial, []]];
  const seen = new Set([lifecycle.initial]);
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [state, steps] = next;
    if (wanted(state)) return steps;
    for (const [name, action] of Object.entries(lifecycle.actions ?? {})) {
      if (!action.from.includes(state) || seen.has(action.to)) continue;
      seen.add(action.to);
      queue.push([action.to, [...steps, stepOf(resource, name)]]);
    }
  }
  return undefined;
}

/** What a record needs first for the action (approve: submit), by its `from` states; none for a record's action. */
export function stepsBefore(resource: Resource, action: string): Step[] | undefined {
  const from = actionsOf(resource)[action]?.from;
  return from ? stepsTo(resource, (state) => from.includes(state)) : [];
}

/** The way to a state the action cannot start from (its 409), if the actions lead to one. */
export function stepsOutOf(resource: Resource, action: string): Step[] | undefined {
  const from = actionsOf(resource)[action]?.from;
  return from && stepsTo(resource, (state) => !from.includes(state));
}

/** The way to a state a PUT cannot edit the record in (its 409), if the actions lead to one. */
export function stepsToLocked(resource: Resource): Step[] | undefined {
  const editable: readonly string[] = resource.lifecycle?.editableIn ?? [];
  return resource.lifecycle && stepsTo(resource, (state) => !editable.includes(state));
}

/** The way to a state a DELETE cannot remove the record in (its 409), when the lifecycle says where it may. */
export function stepsToUndeletable(resource: Resource): Step[] | undefined {
  const deletable = resource.lifecycle?.deletableIn;
  return deletable && stepsTo(resource, (state) => !deletable.includes(state));
}
