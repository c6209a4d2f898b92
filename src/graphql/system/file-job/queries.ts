// The GraphQL queries of a job with a file: its list (`exports`) and its record
// (`export(id)`), open to any credential; the service narrows them to what the
// caller may see (reads.ts).
import { Arg, Args, Ctx, ID, Query, Resolver, type ClassType } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { decoratedMethod } from '../../kit/decorate.js';
import { lookupOptions } from '../../kit/lookup.js';
import { PageOf } from '../../kit/page.js';
import { Requires } from '../../kit/scope.js';
import type { FileJobReads } from './reads.js';

export interface FileJobQueries {
  type: ClassType;
  list: { Args: ClassType };
  names: { one: string; many: string };
  /** The list query's description. */
  listDescription: string;
}

/** A resolver class with the two queries, each calling `ctx.services[names.many]`; more may be added to it. */
export function fileJobResolver({ type, list, names, listDescription }: FileJobQueries): ClassType {
  const service = (ctx: Context) => (ctx.services as unknown as Record<string, FileJobReads<unknown>>)[names.many]!;
  // Made at load time: type-graphql reads types when the schema is built, not later.
  const Page = PageOf(type);
  const Generated = { [`${type.name}Resolver`]: class {} }[`${type.name}Resolver`]!;
  decoratedMethod(
    Generated.prototype,
    names.many,
    (args: object, ctx: Context) => service(ctx).list(requirePrincipal(ctx), givenArgs(args)),
    [Requires(), Query(() => Page, { description: listDescription })],
    [Args(() => list.Args), Ctx()],
  );
  decoratedMethod(
    Generated.prototype,
    names.one,
    (id: string, ctx: Context) => service(ctx).get(requirePrincipal(ctx), id),
    [Requires(), Query(() => type, lookupOptions(names.one))],
    [Arg('id', () => ID), Ctx()],
  );
  Resolver(() => type)(Generated);
  return Generated;
}
