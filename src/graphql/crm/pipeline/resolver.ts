// `dealPipeline`: the deals of the organization by stage, for anyone who may read deals.
import { Ctx, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { Requires } from '../../kit/scope.js';
import { DealStageSummary } from './type.js';

@Resolver(() => DealStageSummary)
export class DealPipelineResolver {
  @Requires('crm:read')
  @Query(() => [DealStageSummary], {
    description: 'Every deal stage, in lifecycle order: how many deals and their amounts per currency.',
  })
  dealPipeline(@Ctx() ctx: Context): Promise<DealStageSummary[]> {
    return ctx.services.dealPipeline.summary(requirePrincipal(ctx));
  }
}
