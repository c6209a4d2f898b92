// Thin: every user operation needs `admin`; the work is in UserService.
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { PageOf, type Page } from '../../kit/page.js';
import { lookupOptions } from '../../kit/lookup.js';
import { Requires } from '../../kit/scope.js';
import { userInput, userList } from './input.js';
import { User } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const UserPage = PageOf(User);

@Resolver(() => User)
export class UserResolver {
  @Requires('admin')
  @Query(() => UserPage, { description: 'Users of the organization, oldest first unless sorted.' })
  users(@Args(() => userList.Args) args: object, @Ctx() ctx: Context): Promise<Page<User>> {
    return ctx.services.users.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires('admin')
  @Query(() => User, lookupOptions('user'))
  user(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<User> {
    return ctx.services.users.get(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => User)
  createUser(@Arg('input', () => userInput.CreateInput) input: object, @Ctx() ctx: Context): Promise<User> {
    return ctx.services.users.create(requirePrincipal(ctx), { ...input });
  }

  @Requires('admin')
  @Mutation(() => User, { description: 'Partial update: omitted fields are kept, null clears.' })
  updateUser(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => userInput.UpdateInput) input: object,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return ctx.services.users.update(requirePrincipal(ctx), id, { ...input }, ctx.restInput?.fixed);
  }

  @Requires('admin')
  @Mutation(() => Boolean, { description: 'Deletes the user; the last admin cannot be deleted.' })
  deleteUser(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    return ctx.services.users.delete(requirePrincipal(ctx), id);
  }
}
