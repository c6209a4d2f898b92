// The Invoice as every transport shows it (GraphQL, REST, OpenAPI, events):
// its lines from their jsonb column, and what it still owes computed by the
// same select list as its columns.
import { Float, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { computed, FIELD_KINDS, objectList, oneOf, Public, type FieldKind } from '../../kit/fields.js';
import { overdueKind, paymentTermsKind } from '../terms/overdue-sql.js';

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void'] as const;

const decimal: FieldKind = { ...FIELD_KINDS.int, graphql: () => Float, schema: () => z.number() };

@ObjectType({ simpleResolvers: true, description: 'One line of an invoice.' })
export class InvoiceLine {
  @Public.text()
  description!: string;

  @Public.of(decimal, { description: 'Positive, at most 3 decimals.' })
  quantity!: number;

  @Public.money({ description: 'Integer minor units per unit.' })
  unitAmount!: number;

  @Public.money({ description: 'quantity × unitAmount, rounded half up to the minor unit (computed).' })
  amount!: number;
}

/** total − amountPaid, never stored, so it cannot drift from them. */
const amountDue = computed(FIELD_KINDS.money, (table) => `("${table}".total - "${table}"."amountPaid")::float8`);

@ObjectType({ simpleResolvers: true, description: 'A bill to a contact, in one currency.' })
export class Invoice {
  @Public.id()
  id!: string;

  @Public.text({ description: 'Unique in the organization; INV-000001, … in sequence unless given.' })
  number!: string;

  @Public.id({ description: 'A contact of the organization.' })
  contactId!: string;

  @Public.text({ description: 'ISO 4217 code, upper-case.' })
  currency!: string;

  @Public.date()
  issueDate!: string;

  @Public.date({
    description:
      "Not before issueDate; default issueDate + the terms (the invoice's, else its contact's, else the organization's).",
  })
  dueDate!: string;

  @Public.of(paymentTermsKind, {
    description: 'The terms that applied: the days from issueDate to dueDate (computed; given, it sets the dueDate).',
  })
  paymentTermsDays!: number;

  @Public.of(objectList(InvoiceLine, (table) => `"${table}".lines`), {
    description: '1 to 100, with their computed amounts.',
  })
  lines!: InvoiceLine[];

  @Public.text({ nullable: true })
  notes!: string | null;

  @Public.money({ description: 'Sum of the lines’ amounts (computed).' })
  subtotal!: number;

  @Public.money({ description: 'The subtotal: no tax is applied (computed).' })
  total!: number;

  @Public.money({ description: 'Sum of the payments against the invoice (computed).' })
  amountPaid!: number;

  @Public.of(amountDue, { description: 'total − amountPaid (computed).' })
  amountDue!: number;

  @Public.of(oneOf(INVOICE_STATUSES), {
    description: 'draft → open (action) → paid (when payments cover the total); void from draft or open.',
  })
  status!: (typeof INVOICE_STATUSES)[number];

  @Public.of(overdueKind(amountDue), {
    description: "Open, with an amount due, and its dueDate before today in the organization's time zone (computed).",
  })
  overdue!: boolean;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
