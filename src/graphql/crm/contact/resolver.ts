// Thin: the scope of each operation, then the service.
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { PageOf, type Page } from '../../kit/page.js';
import { Requires } from '../../kit/scope.js';
import { contactInput, contactList } from './input.js';
import { Contact } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const ContactPage = PageOf(Contact);

@Resolver(() => Contact)
export class ContactResolver {
  @Requires('crm:read')
  @Query(() => ContactPage, { description: 'Contacts of the organization, oldest first unless sorted.' })
  contacts(@Args(() => contactList.Args) args: object, @Ctx() ctx: Context): Promise<Page<Contact>> {
    return ctx.services.contacts.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires('crm:read')
  @Query(() => Contact)
  contact(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<Contact> {
    return ctx.services.contacts.get(requirePrincipal(ctx), id);
  }

  @Requires('crm:write')
  @Mutation(() => Contact)
  createContact(@Arg('input', () => contactInput.CreateInput) input: object, @Ctx() ctx: Context): Promise<Contact> {
    return ctx.services.contacts.create(requirePrincipal(ctx), { ...input });
  }

  @Requires('crm:write')
  @Mutation(() => Contact, { description: 'Partial update: omitted fields are kept, null clears.' })
  updateContact(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => contactInput.UpdateInput) input: object,
    @Ctx() ctx: Context,
  ): Promise<Contact> {
    return ctx.services.contacts.update(requirePrincipal(ctx), id, { ...input });
  }

  @Requires('crm:write')
  @Mutation(() => Boolean)
  deleteContact(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    return ctx.services.contacts.delete(requirePrincipal(ctx), id);
  }
}
