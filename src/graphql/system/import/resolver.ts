// Thin: any credential may ask; the service shows only the imports whose resource the
// caller reads or writes. The file is posted over REST (a file is not a GraphQL value).
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { Requires } from '../../kit/scope.js';
import { fileJobResolver } from '../file-job/queries.js';
import { importList } from './input.js';
import { Import } from './type.js';

export const ImportQueries = fileJobResolver({
  type: Import,
  list: importList,
  names: { one: 'import', many: 'imports' },
  listDescription: 'Imports of the organization into resources the caller reads or writes, oldest first.',
});

@Resolver(() => Import)
export class ImportResolver {
  @Requires()
  @Query(() => String, {
    description: "A resource's import template: the CSV header row of its fields and a row of its example.",
  })
  importTemplate(@Arg('resource', () => String) resource: string, @Ctx() ctx: Context): string {
    requirePrincipal(ctx);
    return ctx.services.imports.template({ resource });
  }
}
