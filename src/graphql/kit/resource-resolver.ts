// The GraphQL face of a declared resource, made from its declaration: the
// queries `things` and `thing`, the mutations `createThing`, `updateThing`,
// `deleteThing` (as served) and one per action (`terminateEmployee`, `refundPayment`),
// each with the area's scope. Every one calls the resource's service; when the
// REST facade already validated the request (ctx.restInput), the service does
// not validate it again.
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, type ClassType } from 'type-graphql';
import { requirePrincipal } from '../auth-checker.js';
import type { Context } from '../context.js';
import { givenArgs } from './args.js';
import { decoratedMethod } from './decorate.js';
import { PageOf } from './page.js';
import { actionsOf, type Resource } from './resource.js';
import type { ResourceService } from './resource-service.js';
import { lookupOptions } from './lookup.js';
import { Requires } from './scope.js';
import type { Scope } from '../../auth/scopes.js';

const upperFirst = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** The input the service should take: REST's validated one when present, else the GraphQL argument. */
function given(ctx: Context, value: unknown): [unknown, boolean] {
  return ctx.restInput ? [ctx.restInput.value, true] : [value, false];
}

export function resourceResolver<T extends { id: string }>(resource: Resource<T>): ClassType {
  const { type, names, area, input } = resource;
  const name = type.name;
  const service = (ctx: Context) => (ctx.services as unknown as Record<string, ResourceService<T>>)[names.many]!;
  const Page = PageOf(type);
  // An area open to any credential needs no scope: the service narrows what each caller sees.
  const needs = (scope: Scope) => Requires(area.anyCredential ? undefined : scope);
  const Generated = { [`${name}Resolver`]: class {} }[`${name}Resolver`]!;
  const prototype = Generated.prototype;

  decoratedMethod(
    prototype,
    names.many,
    (args: object, ctx: Context) => service(ctx).list(requirePrincipal(ctx), ...given(ctx, givenArgs(args))),
    [
      needs(area.read),
      Query(() => Page, { description: `${upperFirst(resource.noun[1])}, oldest first unless sorted.` }),
    ],
    [Args(() => resource.list.Args), Ctx()],
  );
  decoratedMethod(
    prototype,
    names.one,
    (id: string, ctx: Context) => service(ctx).get(requirePrincipal(ctx), id),
    [needs(area.read), Query(() => type, lookupOptions(resource.noun[0]))],
    [Arg('id', () => ID), Ctx()],
  );
  if (input) {
    decoratedMethod(
      prototype,
      `create${name}`,
      (value: object, ctx: Context) => service(ctx).create(requirePrincipal(ctx), ...given(ctx, { ...value })),
      // A credential's create answers it with its secret, shown once (kit/secrets.ts).
      [
        needs(area.write),
        Mutation(() => resource.secret?.type ?? type, { description: resource.descriptions?.create }),
      ],
      [Arg('input', () => input.CreateInput), Ctx()],
    );
  }
  if (input && resource.operations.update) {
    decoratedMethod(
      prototype,
      `update${name}`,
      (id: string, value: object, ctx: Context) =>
        service(ctx).update(requirePrincipal(ctx), id, ...given(ctx, { ...value }), ctx.restInput?.fixed),
      [
        needs(area.write),
        Mutation(() => type, {
          description: resource.descriptions?.update ?? 'Partial update: omitted fields are kept, null clears.',
        }),
      ],
      [Arg('id', () => ID), Arg('input', () => input.UpdateInput), Ctx()],
    );
  }
  if (resource.operations.delete) {
    decoratedMethod(
      prototype,
      `delete${name}`,
      (id: string, ctx: Context) => service(ctx).delete(requirePrincipal(ctx), id),
      [needs(area.write), Mutation(() => Boolean, { description: resource.descriptions?.delete })],
      [Arg('id', () => ID), Ctx()],
    );
  }
  for (const [action, declared] of Object.entries(actionsOf(resource))) {
    const { description, input: actionInput } = declared;
    const run = (id: string, value: object | undefined, ctx: Context) =>
      service(ctx).act(requirePrincipal(ctx), action, id, ...given(ctx, value ? { ...value } : {}));
    const answer = declared.issuesSecret ? resource.secret!.type : type;
    decoratedMethod(
      prototype,
      declared.mutation ?? `${action}${name}`,
      actionInput ? run : (id: string, ctx: Context) => run(id, undefined, ctx),
      [needs(area.write), Mutation(() => answer, { description })],
      actionInput
        ? [Arg('id', () => ID), Arg('input', () => actionInput.InputType, { nullable: actionInput.optional }), Ctx()]
        : [Arg('id', () => ID), Ctx()],
    );
  }
  Resolver(() => type)(Generated);
  return Generated;
}
