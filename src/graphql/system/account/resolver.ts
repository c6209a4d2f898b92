// The signed-in user's own account: their sessions and their password. A
// session's own business (docs/decisions.md, Dashboard: your account), so each
// operation needs a signed-in browser and no scope; the work is in SessionService
// and UserService.
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Principal } from '../../../auth/principal.js';
import { DomainError } from '../../../errors.js';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { Requires } from '../../kit/scope.js';
import { User } from '../user/type.js';
import { Session } from './type.js';

/** The session asking, and its user: a key or token acting for a user has no sessions to manage. */
function ownSession(principal: Principal): { sessionId: string; userId: string } {
  if (principal.credential.type !== 'session' || !principal.userId) {
    throw new DomainError('FORBIDDEN', "Only a signed-in user (the dashboard) can manage their own account's sessions");
  }
  return { sessionId: principal.credential.id, userId: principal.userId };
}

@Resolver(() => Session)
export class AccountResolver {
  @Requires()
  @Query(() => [Session], { description: "The signed-in user's live sessions, the most recently used first." })
  async sessions(@Ctx() ctx: Context): Promise<Session[]> {
    const { sessionId, userId } = ownSession(requirePrincipal(ctx));
    const live = await ctx.services.sessions.liveOf(userId);
    return live.map((session) => ({ ...session, current: session.id === sessionId }));
  }

  @Requires()
  @Mutation(() => Boolean, {
    description: "Signs out one of the signed-in user's sessions (another browser); false when it had already ended.",
  })
  endSession(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    const { userId } = ownSession(requirePrincipal(ctx));
    return ctx.services.sessions.endOf(userId, id);
  }

  @Requires()
  @Mutation(() => Int, { description: 'Signs out every session of the signed-in user but this one; how many ended.' })
  endOtherSessions(@Ctx() ctx: Context): Promise<number> {
    const { sessionId, userId } = ownSession(requirePrincipal(ctx));
    return ctx.services.sessions.endOthersOf(userId, sessionId);
  }

  @Requires()
  @Mutation(() => User, {
    description:
      "The signed-in user's own new password (the user rules: 8 to 200 characters), given the current one. " +
      'Ends their other sessions and the OAuth grants they gave; this session stays signed in.',
  })
  changePassword(
    @Arg('currentPassword', () => String) currentPassword: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return ctx.services.users.changeOwnPassword(requirePrincipal(ctx), { currentPassword, newPassword });
  }
}
