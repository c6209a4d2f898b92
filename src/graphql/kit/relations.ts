// Relation fields between declared resources, as GraphQL field resolvers made
// from a declaration's references (references.ts): a reference (`Deal.contact`,
// from the deal's contactId) and the records that name one
// (`Contact.deals(page, limit)`, a page as a root list answers). Each loads
// through a per-request DataLoader, so a list costs one query per relation, not
// one per row; reading a related record needs the related area's read scope.
import { Args, ArgsType, Ctx, Field, FieldResolver, Int, Resolver, Root, type ClassType } from 'type-graphql';
import { requirePrincipal } from '../auth-checker.js';
import type { Context } from '../context.js';
import { parseInput } from '../../validation.js';
import { decoratedMethod } from './decorate.js';
import { byKey, loaderFor } from './loaders.js';
import { DEFAULT_LIMIT, MAX_LIMIT, PageOf, pageSchema, type Page } from './page.js';
import type { Reference } from './references.js';
import type { Resource } from './resource.js';
import type { ResourceService } from './resource-service.js';
import { Requires } from './scope.js';

const serviceOf = <T extends { id: string }>(ctx: Context, resource: Resource<T>) =>
  (ctx.services as unknown as Record<string, ResourceService<T>>)[resource.names.many]!;

function fieldResolver(on: Resource, name: string, define: (prototype: object) => void): ClassType {
  const Generated = { [`${on.type.name}${name}Resolver`]: class {} }[`${on.type.name}${name}Resolver`]!;
  define(Generated.prototype);
  Resolver(() => on.type)(Generated);
  return Generated;
}

/** `<on>.<name>`: the `target` record that `on`'s field `field` names, or null (absent, or deleted). */
function referenceField<T extends { id: string }>(options: {
  on: Resource;
  field: string;
  name: string;
  target: Resource<T>;
  description?: string;
}): ClassType {
  const { on, field, name, target } = options;
  return fieldResolver(on, name, (prototype) =>
    decoratedMethod(
      prototype,
      name,
      async (record: Record<string, unknown>, ctx: Context) => {
        const id = record[field] as string | null;
        if (!id) return null;
        const principal = requirePrincipal(ctx);
        const loader = loaderFor<string, T | undefined>(ctx, `${on.type.name}.${name}`, async (ids) =>
          byKey(ids, await serviceOf(ctx, target).findMany(principal, ids), (row) => row.id),
        );
        return (await loader.load(id)) ?? null;
      },
      [
        Requires(target.area.read),
        FieldResolver(() => target.type, { nullable: true, description: options.description }),
      ],
      [Root(), Ctx()],
    ),
  );
}

/**
 * The arguments of every relation list (`Contact.deals`, `Webhook.deliveries`):
 * the same page and limit as a root list, with their defaults in the schema.
 */
@ArgsType()
export class RelationPageArgs {
  @Field(() => Int, { nullable: true, defaultValue: 1, description: 'From 1.' })
  page?: number | null;

  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_LIMIT, description: `1 to ${MAX_LIMIT}.` })
  limit?: number | null;
}

/**
 * `<on>.<name>(page, limit)`: a page of the `source` records whose `field` names
 * it, oldest first, as a root list answers (`DealPage`: data and pagination).
 */
function referringField<S extends { id: string }>(options: {
  on: Resource;
  name: string;
  source: Resource<S>;
  field: string;
  description?: string;
}): ClassType {
  const { on, name, source, field } = options;
  // Made at load time: type-graphql reads types when the schema is built.
  const SourcePage = PageOf(source.type as ClassType<S>);
  return fieldResolver(on, name, (prototype) =>
    decoratedMethod(
      prototype,
      name,
      (record: { id: string }, args: RelationPageArgs, ctx: Context) => {
        const { page = 1, limit } = parseInput(pageSchema, {
          page: args.page ?? undefined,
          limit: args.limit ?? undefined,
        });
        const window = { page, limit };
        const principal = requirePrincipal(ctx);
        const loader = loaderFor<string, Page<S>>(
          ctx,
          `${on.type.name}.${name}:${window.page}:${window.limit}`,
          (ids) => serviceOf(ctx, source).pagesBy(principal, field, ids, window),
        );
        return loader.load(record.id);
      },
      [Requires(source.area.read), FieldResolver(() => SourcePage, { description: options.description })],
      [Root(), Args(() => RelationPageArgs), Ctx()],
    ),
  );
}

/**
 * The relation fields of a resource's references: `<resource>.<name>` and,
 * unless declared without, `<target>.<inverse>(page, limit)` (made here, beside
 * the referring resource, so the target knows nothing of it).
 */
export function relationFields(resource: Resource<{ id: string }>): ClassType[] {
  return Object.entries(resource.references).flatMap(([field, reference]) =>
    referenceRelations(resource, field, reference),
  );
}

/**
 * The relation fields of one reference: those of a declared one, or of one two
 * declarations cannot both declare (two resources naming each other, whose
 * declarations would each need the other first: a department's manager is an
 * employee, an employee's department a department), given by a module that
 * loads after both.
 */
export function referenceRelations(
  resource: Resource<{ id: string }>,
  field: string,
  { name, target, description, inverse }: Pick<Reference, 'name' | 'target' | 'description' | 'inverse'>,
): ClassType[] {
  return [
    referenceField({ on: resource, field, name, target: target as Resource<{ id: string }>, description }),
    ...(inverse
      ? [referringField({ on: target, name: inverse.name, source: resource, field, description: inverse.description })]
      : []),
  ];
}
