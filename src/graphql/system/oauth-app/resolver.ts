// Thin: every OAuth app operation needs `admin`; the work is in OauthAppService.
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { PageOf, type Page } from '../../kit/page.js';
import { lookupOptions } from '../../kit/lookup.js';
import { Requires } from '../../kit/scope.js';
import { oauthAppInput, oauthAppList } from './input.js';
import { NewOauthApp, OauthApp } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const OauthAppPage = PageOf(OauthApp);

@Resolver(() => OauthApp)
export class OauthAppResolver {
  @Requires('admin')
  @Query(() => OauthAppPage, { description: 'OAuth apps of the organization.' })
  oauthApps(@Args(() => oauthAppList.Args) args: object, @Ctx() ctx: Context): Promise<Page<OauthApp>> {
    return ctx.services.oauthApps.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires('admin')
  @Query(() => OauthApp, lookupOptions('OAuth app'))
  oauthApp(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<OauthApp> {
    return ctx.services.oauthApps.get(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => NewOauthApp, { description: 'The client secret is in this answer only.' })
  createOauthApp(
    @Arg('input', () => oauthAppInput.CreateInput) input: object,
    @Ctx() ctx: Context,
  ): Promise<NewOauthApp> {
    return ctx.services.oauthApps.create(requirePrincipal(ctx), { ...input });
  }

  @Requires('admin')
  @Mutation(() => OauthApp, { description: 'Partial update: omitted fields are kept, null clears the description.' })
  updateOauthApp(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => oauthAppInput.UpdateInput) input: object,
    @Ctx() ctx: Context,
  ): Promise<OauthApp> {
    return ctx.services.oauthApps.update(requirePrincipal(ctx), id, { ...input }, ctx.restInput?.fixed);
  }

  @Requires('admin')
  @Mutation(() => Boolean, { description: 'Deletes the app; every token issued to it stops at once.' })
  deleteOauthApp(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    return ctx.services.oauthApps.delete(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => NewOauthApp, { description: 'A new client secret, in this answer only; the old one stops at once.' })
  rotateOauthAppSecret(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<NewOauthApp> {
    return ctx.services.oauthApps.rotateSecret(requirePrincipal(ctx), id);
  }
}
