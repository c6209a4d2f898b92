// The Payment as every transport shows it (GraphQL, REST, OpenAPI, events),
// with its refunds (a JSONB column of the record) and what they add up to.
import { ObjectType } from 'type-graphql';
import { computed, FIELD_KINDS, oneOf, Public, storedObjectList } from '../../kit/fields.js';

export const PAYMENT_METHODS = ['card', 'bank_transfer', 'cash', 'other'] as const;

@ObjectType({ simpleResolvers: true, description: 'Money given back out of a payment.' })
export class Refund {
  @Public.money({ description: 'Positive integer minor units of the payment’s currency.' })
  amount!: number;

  @Public.text({ description: 'Why it was given back.' })
  reason!: string;

  @Public.timestamp({ description: 'When it was recorded.' })
  refundedAt!: string;
}

/** Σ refunds' amounts, read from the one list that holds them, so the two cannot differ. */
const amountRefunded = computed(
  FIELD_KINDS.money,
  (t) => `(select coalesce(sum((r->>'amount')::bigint), 0) from jsonb_array_elements("${t}".refunds) r)::float8`,
);

@ObjectType({ simpleResolvers: true, description: 'Money received, against an invoice or unallocated.' })
export class Payment {
  @Public.id()
  id!: string;

  @Public.id({
    nullable: true,
    description: 'The invoice it pays; null: unallocated (POST /finance/payments/:id/allocate applies it later).',
  })
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

  @Public.of(amountRefunded, { description: 'Sum of the refunds’ amounts, at most the amount (computed).' })
  amountRefunded!: number;

  @Public.of(storedObjectList(Refund), {
    description: 'Its refunds, oldest first (POST /finance/payments/:id/refund).',
  })
  refunds!: Refund[];

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
