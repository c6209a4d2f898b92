// Thin: the scope of each operation, then the service. The relation fields
// Deal.contact and Contact.deals load through per-request DataLoaders, so a
// list costs one query per relation, not one per row.
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { byKey, groupByKey, loaderFor } from '../../kit/loaders.js';
import { PageOf, type Page } from '../../kit/page.js';
import { Requires } from '../../kit/scope.js';
import { Contact } from '../contact/type.js';
import { dealInput, dealList } from './input.js';
import { Deal } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const DealPage = PageOf(Deal);

@Resolver(() => Deal)
export class DealResolver {
  @Requires('crm:read')
  @Query(() => DealPage, { description: 'Deals of the organization, oldest first unless sorted.' })
  deals(@Args(() => dealList.Args) args: object, @Ctx() ctx: Context): Promise<Page<Deal>> {
    return ctx.services.deals.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires('crm:read')
  @Query(() => Deal)
  deal(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<Deal> {
    return ctx.services.deals.get(requirePrincipal(ctx), id);
  }

  @Requires('crm:write')
  @Mutation(() => Deal, { description: 'Emits deal.created.' })
  createDeal(@Arg('input', () => dealInput.CreateInput) input: object, @Ctx() ctx: Context): Promise<Deal> {
    return ctx.services.deals.create(requirePrincipal(ctx), { ...input });
  }

  @Requires('crm:write')
  @Mutation(() => Deal, {
    description:
      'Partial update: omitted fields are kept, null clears. A stage change emits deal.stage_changed, and deal.closed on won or lost.',
  })
  updateDeal(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => dealInput.UpdateInput) input: object,
    @Ctx() ctx: Context,
  ): Promise<Deal> {
    return ctx.services.deals.update(requirePrincipal(ctx), id, { ...input });
  }

  @Requires('crm:write')
  @Mutation(() => Boolean)
  deleteDeal(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    return ctx.services.deals.delete(requirePrincipal(ctx), id);
  }

  // Reading a related record is reading: a crm:write-only key gets no contact through a mutation's answer.
  @Requires('crm:read')
  @FieldResolver(() => Contact, { nullable: true, description: 'The contact, if any (null once it is deleted).' })
  async contact(@Root() deal: Deal, @Ctx() ctx: Context): Promise<Contact | null> {
    if (!deal.contactId) return null;
    const principal = requirePrincipal(ctx);
    const loader = loaderFor<string, Contact | undefined>(ctx, 'Deal.contact', async (ids) =>
      byKey(ids, await ctx.services.contacts.findMany(principal, ids), (contact) => contact.id),
    );
    return (await loader.load(deal.contactId)) ?? null;
  }
}

/** Contact.deals lives here, beside the deals it loads, so the contact folder knows nothing of deals. */
@Resolver(() => Contact)
export class ContactDealsResolver {
  @Requires('crm:read')
  @FieldResolver(() => [Deal], { description: "The contact's deals, oldest first." })
  deals(@Root() contact: Contact, @Ctx() ctx: Context): Promise<Deal[]> {
    const principal = requirePrincipal(ctx);
    const loader = loaderFor<string, Deal[]>(ctx, 'Contact.deals', async (ids) =>
      groupByKey(ids, await ctx.services.deals.forContacts(principal, ids), (deal) => deal.contactId!),
    );
    return loader.load(contact.id);
  }
}
