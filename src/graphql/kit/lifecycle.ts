// A resource's lifecycle as data: the field that holds its state (the states
// are that field's oneOf values, written once in the type), where a new record
// starts, the actions between states (which states each may start from, where
// it leads, what it takes and sets, the event it raises) and the states in
// which the record may still be edited. From it the kit makes
// `POST /<things>/:id/<action>` and a GraphQL mutation per action, refuses a
// move from the wrong state with a 409 that names the current state, refuses an
// edit in a state that allows none, and refuses in a PUT body a field that only
// an action changes (400 naming the action to use).
import type { Actor } from '../../auth/principal.js';
import type { Config } from '../../config.js';
import { DomainError } from '../../errors.js';
import type { EventDeclaration } from '../../events/event.js';
import { publicFieldsOf, type PublicType } from './fields.js';
import type { ActionInput } from './inputs.js';

/** What an action's rule may read and do: the connection of the change's transaction. */
export interface RuleContext {
  organizationId: string;
  /** Who makes the change: the actor of the events a rule raises (updateRecordFromRule). */
  actor: Actor;
  /**
   * The user the caller acts for (Principal.userId): a session's or a code-flow
   * token's user, or the creator of the API key used; undefined for the operator,
   * a key without a creator, an app acting for itself.
   */
  userId?: string;
  /**
   * A statement on the change's transaction (rules check other records with it).
   * `prepared`: a statement of a fixed shape (the kit's own), prepared once per connection (statements.ts).
   */
  query<R extends object = Record<string, unknown>>(
    text: string,
    values: unknown[],
    options?: { prepared?: boolean },
  ): Promise<R[]>;
  /** The caller's scopes (what a webhook it makes may carry); every service's context has them. */
  scopes?: ReadonlySet<string>;
  /** The caller is the operator (the CLI, or a key the operator made). */
  operator?: boolean;
  /** The service's configuration (a redirect URI's policy); tools that build services without one leave it out. */
  config?: Config;
  /**
   * Ends the credentials that depend on `id` (a key, an app, a user): NOTIFYs it in
   * this transaction, and this process's cache drops them right after the commit
   * (kit/credential-changes.ts). Every service's context has it (kit/rule-context.ts).
   */
  endCredentials?(id: string): Promise<void>;
}

/**
 * What every action declares: one of a lifecycle (below, which moves the
 * record's state) or one of a record (`actions` of a declaration: a payment's
 * refund, which changes the record and leaves any state as it is).
 */
export interface RecordAction<T, I = Record<string, unknown>> {
  description: string;
  /** What the action takes (a JSON body, a GraphQL input); none: it takes nothing. */
  input?: ActionInput<I>;
  /** The columns it sets (besides the state, for a lifecycle's), from its input and the record (may check, and throw). */
  sets?(input: I, record: T, rules: RuleContext): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Fields of the record only this action changes (refused in a PUT body). */
  changes?: readonly string[];
  /** The event it raises, with the previous values of what it changed: every action raises one. */
  event: EventDeclaration;
  /** When its `sets` refuses with a 409 (for the OpenAPI document): 'The invoice has payments'. */
  conflict?: string;
  /** Answer 201 rather than 200 (an action that creates). */
  status?: 200 | 201;
  /** A record it leaves as it is, answered unchanged with no event (revoking a revoked key). */
  leaves?(record: T): boolean;
  /** false: its event carries no previousAttributes (api_key.revoked). */
  previous?: boolean;
  /** Issues a new secret after `sets` (the declaration's `secret`) and answers the record with it, shown once. */
  issuesSecret?: boolean;
  /** The GraphQL mutation (and OpenAPI operationId) when not `<name><Type>`: `rotateOauthAppSecret`. */
  mutation?: string;
  /** The OpenAPI summary when not made from the name: "Rotate an OAuth app's client secret". */
  summary?: string;
}

export interface Action<T, I = Record<string, unknown>> extends RecordAction<T, I> {
  /** The states it may start from. */
  from: readonly string[];
  /** The state it leads to. */
  to: string;
  /**
   * The event raised instead of `event` when `applies` to what the action
   * changes (terminate with a future endDate: the notice, not yet the end).
   */
  otherwise?: { event: EventDeclaration; applies(changes: Record<string, unknown>): boolean };
}

export interface Lifecycle<T> {
  /** The field that holds the state (`status`, `stage`): a public `oneOf` field of the type. */
  field: string;
  /** The field's values, in order (filled in from the type). */
  states: readonly [string, ...string[]];
  /** Where a new record starts. */
  initial: string;
  /** When a create may name the state (the field is in the input): the states it may name. */
  startsIn?: readonly string[];
  /** States no move leaves, and what they are called (`closed`: "a closed deal's stage cannot change"). */
  final?: { states: readonly string[]; name: string };
  /**
   * When the state moves through PUT (a deal's stage): the event of every move
   * (with the previous values), and on reaching a final state the field stamped
   * with the time and the event raised.
   */
  update?: { event: EventDeclaration; finalEvent?: EventDeclaration; stampFinal?: string };
  /**
   * The states a PUT may edit the record in; in any other a PUT is 409 naming
   * the state. Every lifecycle says it, so a closed record is never edited by
   * default (docs/decisions.md, "Closed records").
   */
  editableIn: readonly [string, ...string[]];
  /**
   * With `operations.delete`: the states a DELETE may remove the record in (an
   * open attendance record, a draft payroll run); in any other it is 409 naming
   * the state. Default: any state.
   */
  deletableIn?: readonly [string, ...string[]];
  /** Named actions (camelCase), each `POST /<things>/:id/<kebab-name>` and the mutation `<name><Type>`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  actions?: Record<string, Action<T, any>>;
}

/** A lifecycle as declared: its states are read from the type's field. */
export type LifecycleDeclaration<T> = Omit<Lifecycle<T>, 'states'>;

/** The lifecycle with its states, the values of the type's `field`; throws at load when that is no oneOf. */
export function completeLifecycle<T>(type: PublicType<T>, declared: LifecycleDeclaration<T>): Lifecycle<T> {
  const states = publicFieldsOf(type).find((field) => field.name === declared.field)?.kind.values;
  if (!states) {
    throw new Error(
      `${type.name}'s lifecycle field '${declared.field}' must be a public field of one of its states ` +
        `(@Public.of(oneOf(STATES))): the lifecycle reads its states from it`,
    );
  }
  const unknown = (declared.deletableIn ?? []).filter((state) => !states.includes(state));
  if (unknown.length) throw new Error(`${type.name}'s lifecycle: deletableIn names no state ${unknown.join(', ')}`);
  return { ...declared, states };
}

/** The REST path segment of an action: its name in kebab case (`clockOut` is `/clock-out`). */
export const actionPath = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** 409 unless the record's state is one the action may start from. */
export function requireActionFrom(typeName: string, action: string, lifecycle: Lifecycle<unknown>, state: string) {
  const from = lifecycle.actions![action]!.from;
  if (!from.includes(state)) {
    throw new DomainError(
      'CONFLICT',
      `${typeName} is ${state}; ${action} needs it to be ${from.join(' or ')}`,
      lifecycle.field,
    );
  }
}

/** Whether some state of the lifecycle refuses edits. */
export const hasLockedStates = (lifecycle: Lifecycle<unknown>) =>
  lifecycle.states.some((state) => !lifecycle.editableIn.includes(state));

/** 409 unless a PUT may edit the record in its state. */
export function requireEditable(typeName: string, lifecycle: Lifecycle<unknown> | undefined, state: unknown) {
  if (!lifecycle || lifecycle.editableIn.includes(state as string)) return;
  throw new DomainError(
    'CONFLICT',
    `${typeName} is ${String(state)}; it can be edited only while ${lifecycle.editableIn.join(' or ')}`,
    lifecycle.field,
  );
}

/** 409 when a PUT would move the state out of a final one (a paid invoice's status cannot change). */
export function refuseLeavingFinal(typeName: string, noun: string, lifecycle: Lifecycle<unknown>, state: unknown) {
  if (!lifecycle.final?.states.includes(state as string)) return;
  throw new DomainError(
    'CONFLICT',
    `${typeName} is ${String(state)}; a ${lifecycle.final.name} ${noun}'s ${lifecycle.field} cannot change`,
    lifecycle.field,
  );
}

/** 409 unless a DELETE may remove the record in its state. */
export function requireDeletable(typeName: string, lifecycle: Lifecycle<unknown> | undefined, state: unknown) {
  if (!lifecycle?.deletableIn || lifecycle.deletableIn.includes(state as string)) return;
  throw new DomainError(
    'CONFLICT',
    `${typeName} is ${String(state)}; it can be deleted only while ${lifecycle.deletableIn.join(' or ')}`,
    lifecycle.field,
  );
}
