// Credentials on the kit: a resource whose create (and the actions that say
// `issuesSecret`, a rotation) issue a secret shown once. The declaration's
// `secret` says how one is issued: the columns that keep it (a hash, a sealed
// copy) and what the answer shows, once. Those answers are of `secret.type`
// (the record with its secret: `NewOauthApp`) in GraphQL, REST and the OpenAPI
// document; the record's own type, its lists and its events never hold it.
import type { PublicType } from './fields.js';
import type { RuleContext } from './lifecycle.js';

/** A secret just made: what the row keeps of it, and what the answer shows once. */
export interface IssuedSecret {
  columns: Record<string, unknown>;
  shown: Record<string, unknown>;
}

export interface SecretDeclaration {
  /** The answer of a create and of an action that issues one: the record's public fields and the secret's. */
  type: PublicType;
  /** A new secret for the record as it will be (a create's values after its rules; an action's record and changes). */
  issue(record: Record<string, unknown>, rules: RuleContext): IssuedSecret | Promise<IssuedSecret>;
}

/** The record as the answer shows it: with the secret just issued, if one was. */
export function withSecret<T extends object>(record: T, issued: IssuedSecret | undefined): T {
  return issued ? { ...record, ...issued.shown } : record;
}
