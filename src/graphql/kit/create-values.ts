// A create's new record before any database work: the input validated, the
// fields the caller may set, defaults, the id, the starting state, references
// well-formed and the resource's own checks (rules.check).
import type { Principal } from '../../auth/principal.js';
import { DomainError } from '../../errors.js';
import { newIdWith } from '../../ids.js';
import { parseInput } from '../../validation.js';
import { requireSettable } from './field-scopes.js';
import { createValues } from './inputs.js';
import { requireWellFormedReferences } from './reference-checks.js';
import type { Resource } from './resource.js';

/** A create's checks that need no database, and the new record's values (its id among them). */
export function newRecordValues(
  resource: Resource,
  principal: Principal,
  input: unknown,
  parsed: boolean,
): Record<string, unknown> {
  const declared = resource.input!;
  const data = (parsed ? input : parseInput(declared.create, input)) as Record<string, unknown>;
  requireSettable(resource.type, data, principal.scopes);
  const values = {
    id: newIdWith(resource.idPrefix),
    ...createValues(declared.fields, data),
    ...startingState(resource, data),
  };
  requireWellFormedReferences(resource, values);
  resource.rules?.check?.(values);
  return values;
}

/** The lifecycle's state of a new record: the initial one, or one the create may name (`startsIn`). */
function startingState(resource: Resource, data: Record<string, unknown>): Record<string, unknown> {
  const lifecycle = resource.lifecycle;
  if (!lifecycle) return {};
  const named = data[lifecycle.field] as string | null | undefined;
  if (named === undefined || named === null) return { [lifecycle.field]: lifecycle.initial };
  if (!lifecycle.startsIn?.includes(named)) {
    const allowed = lifecycle.startsIn ?? [lifecycle.initial];
    throw new DomainError(
      'VALIDATION_ERROR',
      `'${lifecycle.field}': a new ${resource.noun[0]} starts at one of ${allowed.join(', ')}`,
      lifecycle.field,
    );
  }
  return { [lifecycle.field]: named };
}
