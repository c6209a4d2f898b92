// Thin: any credential may ask; the service shows only the imports whose resource the
// caller reads or writes. The file is posted over REST (a file is not a GraphQL value).
import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import { ID } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { lookupOptions } from '../../kit/lookup.js';
import { PageOf, type Page } from '../../kit/page.js';
import { Requires } from '../../kit/scope.js';
import { importList } from './input.js';
import { Import } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const ImportPage = PageOf(Import);

@Resolver(() => Import)
export class ImportResolver {
  @Requires()
  @Query(() => ImportPage, {
    description: 'Imports of the organization into resources the caller reads or writes, oldest first.',
  })
  imports(@Args(() => importList.Args) args: object, @Ctx() ctx: Context): Promise<Page<Import>> {
    return ctx.services.imports.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires()
  @Query(() => Import, lookupOptions('import'))
  import(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<Import> {
    return ctx.services.imports.get(requirePrincipal(ctx), id);
  }

  @Requires()
  @Query(() => String, {
    description: "A resource's import template: the CSV header row of its fields and a row of its example.",
  })
  importTemplate(@Arg('resource', () => String) resource: string, @Ctx() ctx: Context): string {
    requirePrincipal(ctx);
    return ctx.services.imports.template({ resource });
  }
}
