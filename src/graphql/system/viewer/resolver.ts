// `viewer`: any credential may ask who it is.
import { Ctx, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { Requires } from '../../kit/scope.js';
import { Viewer } from './type.js';

@Resolver(() => Viewer)
export class ViewerResolver {
  @Requires()
  @Query(() => Viewer, { description: 'The caller: user, organization, effective scopes and credential type.' })
  viewer(@Ctx() ctx: Context): Promise<Viewer> {
    return ctx.services.viewer.of(requirePrincipal(ctx));
  }
}
