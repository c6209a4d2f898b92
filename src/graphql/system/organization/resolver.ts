// `organization` (any credential: its own) and `updateOrganization` (admin).
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { Requires } from '../../kit/scope.js';
import { UpdateOrganizationInput } from './input.js';
import { Organization } from './type.js';

@Resolver(() => Organization)
export class OrganizationResolver {
  @Requires()
  @Query(() => Organization, {
    description: "The caller's organization: its name, time zone, working week, document details and payment terms.",
  })
  organization(@Ctx() ctx: Context): Promise<Organization> {
    return ctx.services.organizations.get(requirePrincipal(ctx));
  }

  @Requires('admin')
  @Mutation(() => Organization, {
    description:
      'Changes the name, time zone, working week, document details (legal name, address, tax id) or payment ' +
      'terms; omitted settings are kept. Emits organization.updated.',
  })
  updateOrganization(
    @Arg('input', () => UpdateOrganizationInput) input: object,
    @Ctx() ctx: Context,
  ): Promise<Organization> {
    return ctx.services.organizations.update(requirePrincipal(ctx), { ...input }, ctx.restInput?.fixed);
  }
}
