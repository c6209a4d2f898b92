// The Payment as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { oneOf, Public } from '../../kit/fields.js';

export const PAYMENT_METHODS = ['card', 'bank_transfer', 'cash', 'other'] as const;

@ObjectType({ simpleResolvers: true, description: 'Money received, against an invoice or unallocated.' })
export class Payment {
  @Public.id()
  id!: string;

  @Public.id({ nullable: true, description: 'The invoice it pays; null: unallocated.' })
  invoiceId!: string | null;

  @Public.money({ description: 'Positive integer minor units of currency.' })
  amount!: number;

  @Public.text({ description: "ISO 4217 code, upper-case; the invoice's currency." })
  currency!: string;

  @Public.of(oneOf(PAYMENT_METHODS))
  method!: (typeof PAYMENT_METHODS)[number];

  @Public.timestamp()
  receivedAt!: string;

  @Public.text({ nullable: true, description: 'The payer’s or bank’s reference.' })
  reference!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
