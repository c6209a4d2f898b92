// Thin: scopes via @Authorized, the work in ContactService.
import { Arg, Args, ArgsType, Authorized, Ctx, Field, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { givenArgs } from '../args.js';
import type { Context } from '../context.js';
import { requirePrincipal } from '../auth-checker.js';
import { CreateContactInput, UpdateContactInput } from './contact.input.js';
import { Contact, ContactPage } from './contact.type.js';

@ArgsType()
class ContactListArgs {
  @Field(() => Int, { nullable: true, description: 'From 1; default 1.' })
  page?: number;

  @Field(() => Int, { nullable: true, description: '1 to 100; default 50.' })
  limit?: number;

  @Field(() => String, { nullable: true, description: 'A field name, `-` prefix for descending.' })
  sort?: string;

  @Field(() => String, { nullable: true, description: 'Exact email (case-insensitive).' })
  email?: string;

  @Field(() => String, { nullable: true, description: 'Exact company name (case-insensitive).' })
  company?: string;

  @Field(() => String, { nullable: true, description: 'Contacts carrying this tag.' })
  tag?: string;

  @Field(() => String, { nullable: true, description: 'Text search over names, email and company.' })
  q?: string;
}

@Resolver(() => Contact)
export class ContactResolver {
  @Authorized('crm:read')
  @Query(() => ContactPage, { description: 'Contacts of the organization, oldest first unless sorted.' })
  contacts(@Args(() => ContactListArgs) args: ContactListArgs, @Ctx() ctx: Context): Promise<ContactPage> {
    return ctx.services.contacts.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Authorized('crm:read')
  @Query(() => Contact)
  contact(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<Contact> {
    return ctx.services.contacts.get(requirePrincipal(ctx), id);
  }

  @Authorized('crm:write')
  @Mutation(() => Contact)
  createContact(
    @Arg('input', () => CreateContactInput) input: CreateContactInput,
    @Ctx() ctx: Context,
  ): Promise<Contact> {
    return ctx.services.contacts.create(requirePrincipal(ctx), { ...input });
  }

  @Authorized('crm:write')
  @Mutation(() => Contact, { description: 'Partial update: omitted fields are kept, null clears.' })
  updateContact(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateContactInput) input: UpdateContactInput,
    @Ctx() ctx: Context,
  ): Promise<Contact> {
    return ctx.services.contacts.update(requirePrincipal(ctx), id, { ...input });
  }

  @Authorized('crm:write')
  @Mutation(() => Boolean)
  deleteContact(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    return ctx.services.contacts.delete(requirePrincipal(ctx), id);
  }
}
