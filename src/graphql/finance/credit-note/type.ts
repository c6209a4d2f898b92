// The CreditNote as every transport shows it (GraphQL, REST, OpenAPI, events):
// lines as an invoice's (the invoice's line type, priced by the invoice's
// rule) or a plain amount, against one invoice whose contact and currency it takes.
import { ObjectType } from 'type-graphql';
import { oneOf, Public, storedObjectList } from '../../kit/fields.js';
import { InvoiceLine, TaxAmount } from '../invoice/type.js';

export const CREDIT_NOTE_STATUSES = ['draft', 'issued'] as const;

@ObjectType({ simpleResolvers: true, description: 'A correction of an invoice: what is no longer owed on it.' })
export class CreditNote {
  @Public.id()
  id!: string;

  @Public.text({
    nullable: true,
    description: 'CN-000001, … in sequence per organization, given when issued (null while a draft).',
  })
  number!: string | null;

  @Public.id({ description: 'The open or paid invoice of the organization it credits.' })
  invoiceId!: string;

  @Public.id({ description: "The invoice's contact." })
  contactId!: string;

  @Public.text({ description: "ISO 4217 code, upper-case: the invoice's currency." })
  currency!: string;

  @Public.text({ description: 'Why the invoice is credited.' })
  reason!: string;

  @Public.of(storedObjectList(InvoiceLine), {
    nullable: true,
    description: "As an invoice's, with their computed amounts; null when a plain amount is credited.",
  })
  lines!: InvoiceLine[] | null;

  @Public.money({ nullable: true, description: 'A plain amount credited; null when lines are.' })
  amount!: number | null;

  @Public.money({
    description: 'Sum of the lines’ quantity × unitAmount before discounts, or the plain amount (computed).',
  })
  subtotal!: number;

  @Public.money({ description: 'Sum of the lines’ discounts; 0 for a plain amount (computed).' })
  discountTotal!: number;

  @Public.money({
    description: 'Sum of every tax of the lines, inclusive and exclusive; 0 for a plain amount (computed).',
  })
  taxTotal!: number;

  @Public.of(storedObjectList(TaxAmount), {
    description: 'Per tax rate: its taxable amount and tax credited, summed over the lines; [] for a plain amount.',
  })
  taxes!: TaxAmount[];

  @Public.money({
    description:
      "What it takes off the invoice: subtotal − discountTotal + the exclusive taxes, as an invoice's total " +
      '(computed), or the plain amount.',
  })
  total!: number;

  @Public.of(oneOf(CREDIT_NOTE_STATUSES), {
    description: 'draft (edited, deleted) → issued (action): then it counts in the invoice’s amountCredited.',
  })
  status!: (typeof CREDIT_NOTE_STATUSES)[number];

  @Public.timestamp({ nullable: true, description: 'When it was issued.' })
  issuedAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
