// Beside the kit's fields (index.ts): the rotation, which answers the new key, and
// the key a rotation replaced one with. `admin` only; the work is in ApiKeyService.
import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { DateTime } from '../../kit/date-time.js';
import { loaderFor } from '../../kit/loaders.js';
import { Requires } from '../../kit/scope.js';
import { ApiKey, NewApiKey } from './type.js';

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Requires('admin')
  @Mutation(() => NewApiKey, { description: 'A new key and secret with the same name and scopes; the old key stops.' })
  rotateApiKey(
    @Arg('id', () => ID) id: string,
    @Arg('expiresAt', () => DateTime, { nullable: true, description: 'Default: the old key’s expiry.' })
    expiresAt: string | undefined,
    @Ctx() ctx: Context,
  ): Promise<NewApiKey> {
    return ctx.services.apiKeys.rotate(requirePrincipal(ctx), id, expiresAt === undefined ? {} : { expiresAt });
  }

  @Requires('admin')
  @FieldResolver(() => ApiKey, {
    nullable: true,
    description: 'The key a rotation replaced this one with (see replacedById).',
  })
  async replacedBy(@Root() key: ApiKey, @Ctx() ctx: Context): Promise<ApiKey | null> {
    if (!key.replacedById) return null;
    const principal = requirePrincipal(ctx);
    const keys = loaderFor<string, ApiKey | undefined>(ctx, 'ApiKey.replacedBy', async (ids) => {
      const found = new Map((await ctx.services.apiKeys.findMany(principal, ids)).map((row) => [row.id, row]));
      return ids.map((id) => found.get(id));
    });
    return (await keys.load(key.replacedById)) ?? null;
  }
}
