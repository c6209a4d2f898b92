// The change feed needs a credential but no particular scope: each resource's
// changes need the scope of its list (ChangeFeed).
import { Args, ArgsType, Ctx, Field, Int, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { Requires } from '../../kit/scope.js';
import { ChangePage } from './type.js';

@ArgsType()
class ChangeArgs {
  @Field(() => String, {
    nullable: true,
    description:
      'A previous page’s next, a change’s cursor or an export’s changesCursor; absent: from the oldest change kept. ' +
      'A cursor read with `resources` follows only those resources (or some of them).',
  })
  after?: string;

  @Field(() => Int, { nullable: true, description: '1 to 1000; default 100.' })
  limit?: number;

  @Field(() => [String], { nullable: true, description: 'Only these resources (REST names: contacts, invoices).' })
  resources?: string[];

  @Field(() => Int, {
    nullable: true,
    description: 'Long polling: wait up to this many seconds (0 to 30) for a change.',
  })
  wait?: number;
}

@Resolver()
export class ChangeResolver {
  @Requires()
  @Query(() => ChangePage, {
    description: 'Committed changes of the organization’s records, in commit order; follow `next` to miss none.',
  })
  changes(@Args(() => ChangeArgs) args: ChangeArgs, @Ctx() ctx: Context): Promise<ChangePage> {
    return ctx.services.changes.read(requirePrincipal(ctx), givenArgs(args)) as Promise<ChangePage>;
  }
}
