// The Deal as every transport shows it: GraphQL type, REST body, OpenAPI schema
// and event data.object all come from these declarations. Relation fields
// (Deal.contact, Contact.deals) come from the declaration's references, not
// from public fields: REST bodies and events never carry them.
import { ObjectType } from 'type-graphql';
import { oneOf, Public } from '../../kit/fields.js';

/** The lifecycle, in order (docs/decisions.md, "Deals"): any open stage may move to any other or close. */
export const DEAL_STAGES = ['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;
export type DealStage = (typeof DEAL_STAGES)[number];

export const OPEN_STAGES = ['lead', 'qualified', 'proposal', 'negotiation'] as const satisfies DealStage[];
export const CLOSED_STAGES = ['won', 'lost'] as const satisfies DealStage[];

@ObjectType({ simpleResolvers: true, description: 'A sales opportunity, from lead to won or lost.' })
export class Deal {
  @Public.id()
  id!: string;

  @Public.text()
  title!: string;

  @Public.money({ description: 'Integer minor units of the currency (cents for USD).' })
  amount!: number;

  @Public.text({ description: 'ISO 4217 code, upper-case.' })
  currency!: string;

  @Public.of(oneOf(DEAL_STAGES), { description: `One of ${DEAL_STAGES.join(', ')}; won and lost are closed.` })
  stage!: DealStage;

  @Public.id({ nullable: true, description: 'A contact of the organization; null once that contact is deleted.' })
  contactId!: string | null;

  @Public.date({ nullable: true })
  expectedCloseDate!: string | null;

  @Public.timestamp({ nullable: true, description: 'When the deal reached won or lost.' })
  closedAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
