// Beside the kit's queries (index.ts): a resource's import template. Any
// credential may ask; the file itself is posted over REST (routes.ts).
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { Requires } from '../../kit/scope.js';
import { Import } from './type.js';

@Resolver(() => Import)
export class ImportTemplateResolver {
  @Requires()
  @Query(() => String, {
    description: "A resource's import template: the CSV header row of its fields and a row of its example.",
  })
  importTemplate(@Arg('resource', () => String) resource: string, @Ctx() ctx: Context): string {
    requirePrincipal(ctx);
    return ctx.services.imports.template({ resource });
  }
}
