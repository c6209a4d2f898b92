// Fields shown only to holders of a scope (`@Public.money({ scope: 'hr:payroll' })`,
// kit/fields.ts), enforced once per transport from the one declaration:
// - GraphQL (/graphql): the field resolves to null without the scope, through
//   the executor's default field resolver (scopedFieldResolver, given to Apollo)
//   and, for a scoped field with a resolver of its own, that resolver wrapped
//   (guardScopedFields, over the built schema);
// - REST: the key is left out of the answer (hiddenFieldsOf: the operation's
//   selection walked once, at start-up, for the fields it reaches that need a
//   scope). Its compiled operations read plain fields as properties, with no
//   resolver per row: a guard there cost a list of 50 employees a fifth of a
//   millisecond of CPU (`npm run bench`), and the keys go anyway;
// - events and exports: withoutHiddenFields over a public object;
// - writes: a create or update giving the field without the scope is 403
//   (requireSettable, called by the kit's service).
import {
  defaultFieldResolver,
  getNamedType,
  isObjectType,
  Kind,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { hasScope, type Scope } from '../../auth/scopes.js';
import { DomainError } from '../../errors.js';
import type { Context } from '../context.js';
import { scopedFieldsOf, type PublicType, type ReadScopeExtension } from './fields.js';

const readScopeOf = (extensions: unknown): Scope | undefined =>
  (extensions as Partial<ReadScopeExtension> | undefined)?.readScope;

const mayRead = (context: Context, scope: Scope) =>
  context.principal !== undefined && hasScope(context.principal.scopes, scope);

/**
 * The default field resolver of GraphQL's executor (/graphql): a field's value
 * as graphql-js reads it, null when the field needs a scope the caller lacks.
 */
export const scopedFieldResolver: GraphQLFieldResolver<unknown, Context> = (source, args, context, info) => {
  const scope = readScopeOf(info.parentType.getFields()[info.fieldName]?.extensions);
  return scope && !mayRead(context, scope) ? null : defaultFieldResolver(source, args, context, info);
};

/** Makes the scoped fields that have a resolver of their own answer null for a caller without the scope. */
export function guardScopedFields(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const scope = readScopeOf(field.extensions);
      const resolve = field.resolve;
      if (!scope || !resolve) continue;
      field.resolve = (source, args, context: Context, info) =>
        mayRead(context, scope) ? resolve(source, args, context, info) : null;
    }
  }
  return schema;
}

/** Where an answer holds scoped fields: those of this level, and the fields below that lead to more. */
export interface HiddenFields {
  fields: { key: string; scope: Scope }[];
  below: Map<string, HiddenFields>;
  /** Every scope needed here and below: a caller holding them all sees the answer whole. */
  scopes: Set<Scope>;
}

function hiddenIn(schema: GraphQLSchema, type: GraphQLObjectType, selections: SelectionSetNode): HiddenFields | null {
  const hidden: HiddenFields = { fields: [], below: new Map(), scopes: new Set() };
  const fields = type.getFields();
  for (const selection of selections.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const inner = hiddenIn(schema, type, selection.selectionSet);
      if (inner) merge(hidden, inner);
      continue;
    }
    if (selection.kind !== Kind.FIELD) continue;
    const field = fields[selection.name.value];
    if (!field) continue;
    const key = selection.alias?.value ?? selection.name.value;
    const scope = readScopeOf(field.extensions);
    if (scope) {
      hidden.fields.push({ key, scope });
      hidden.scopes.add(scope);
    }
    const named = getNamedType(field.type);
    if (selection.selectionSet && isObjectType(named)) {
      const inner = hiddenIn(schema, named, selection.selectionSet);
      if (inner) {
        hidden.below.set(key, inner);
        for (const needed of inner.scopes) hidden.scopes.add(needed);
      }
    }
  }
  return hidden.fields.length || hidden.below.size ? hidden : null;
}

function merge(into: HiddenFields, from: HiddenFields) {
  into.fields.push(...from.fields);
  for (const [key, inner] of from.below) into.below.set(key, inner);
  for (const scope of from.scopes) into.scopes.add(scope);
}

/**
 * The scoped fields an operation's answer may hold, from its selection (read
 * once, when the REST row is prepared); null when it reaches none, the usual case.
 */
export function hiddenFieldsOf(schema: GraphQLSchema, operation: OperationDefinitionNode): HiddenFields | null {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  return root ? hiddenIn(schema, root, operation.selectionSet) : null;
}

/** Removes, in place, the keys of the answer `value` that `scopes` may not see. */
export function removeHidden(value: unknown, hidden: HiddenFields, scopes: ReadonlySet<string>): void {
  for (const scope of hidden.scopes) {
    if (!hasScope(scopes, scope)) return strip(value, hidden, scopes);
  }
}

function strip(value: unknown, hidden: HiddenFields, scopes: ReadonlySet<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) strip(item, hidden, scopes);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const object = value as Record<string, unknown>;
  for (const { key, scope } of hidden.fields) if (!hasScope(scopes, scope)) delete object[key];
  for (const [key, inner] of hidden.below) strip(object[key], inner, scopes);
}

/** A copy of a public object (or its previousAttributes) without the fields `scopes` may not see. */
export function withoutHiddenFields<T extends Record<string, unknown>>(
  object: T,
  fields: readonly { name: string; scope: Scope }[],
  scopes: ReadonlySet<string>,
): T {
  const hidden = fields.filter(({ name, scope }) => name in object && !hasScope(scopes, scope));
  if (!hidden.length) return object;
  const copy: Record<string, unknown> = { ...object };
  for (const { name } of hidden) delete copy[name];
  return copy as T;
}

/**
 * 403 naming the field when `values` (a create's or update's, as given) set a
 * field of `type` that needs a scope the caller lacks, null included.
 */
export function requireSettable(type: PublicType, values: Record<string, unknown>, scopes: ReadonlySet<string>) {
  for (const { name, scope } of scopedFieldsOf(type)) {
    if (values[name] !== undefined && !hasScope(scopes, scope)) {
      throw new DomainError('FORBIDDEN', `'${name}' needs the '${scope}' scope`, name);
    }
  }
}
