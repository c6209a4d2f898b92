// Beside the kit's fields (index.ts): the rotation, which answers the new key.
// `admin` only; the work is in ApiKeyService.
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { DateTime } from '../../kit/date-time.js';
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
}
