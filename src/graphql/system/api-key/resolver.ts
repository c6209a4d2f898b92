// Thin: every API-key operation needs `admin`; the work is in ApiKeyService.
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { loaderFor } from '../../kit/loaders.js';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { DateTime } from '../../kit/date-time.js';
import { PageOf, type Page } from '../../kit/page.js';
import { lookupOptions } from '../../kit/lookup.js';
import { Requires } from '../../kit/scope.js';
import { apiKeyInput, apiKeyList } from './input.js';
import { ApiKey, NewApiKey } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const ApiKeyPage = PageOf(ApiKey);

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Requires('admin')
  @Query(() => ApiKeyPage, { description: 'API keys of the organization, revoked ones included.' })
  apiKeys(@Args(() => apiKeyList.Args) args: object, @Ctx() ctx: Context): Promise<Page<ApiKey>> {
    return ctx.services.apiKeys.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires('admin')
  @Query(() => ApiKey, lookupOptions('API key'))
  apiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<ApiKey> {
    return ctx.services.apiKeys.get(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => NewApiKey, { description: 'The key and secret are in this answer only.' })
  createApiKey(@Arg('input', () => apiKeyInput.CreateInput) input: object, @Ctx() ctx: Context): Promise<NewApiKey> {
    return ctx.services.apiKeys.create(requirePrincipal(ctx), { ...input });
  }

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
    const keys = loaderFor<string, ApiKey | undefined>(ctx, 'ApiKey.replacedBy', (ids) =>
      ctx.services.apiKeys.byIds(principal, ids),
    );
    return (await keys.load(key.replacedById)) ?? null;
  }

  @Requires('admin')
  @Mutation(() => ApiKey, { description: 'Stops the key at once; it stays listed with revokedAt.' })
  revokeApiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<ApiKey> {
    return ctx.services.apiKeys.revoke(requirePrincipal(ctx), id);
  }
}
