// The Invoice as every transport shows it (GraphQL, REST, OpenAPI, events):
// its lines from their jsonb column, and what it still owes computed by the
// same select list as its columns.
import { Float, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { computed, FIELD_KINDS, objectList, oneOf, Public, type FieldKind } from '../../kit/fields.js';

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

/**
 * What the contact still owes: nothing once void, else total − amountPaid −
 * amountCredited (never below 0). Never stored, so it cannot drift from them,
 * and one expression for the API, the exports and the dashboard.
 */
const amountDue = computed(
  FIELD_KINDS.money,
  (t) =>
    `(case when "${t}".status = 'void' then 0 ` +
    `else greatest(0, "${t}".total - "${t}"."amountPaid" - "${t}"."amountCredited") end)::float8`,
);

/** What is owed back to the contact: paid and credited beyond the total (a credit note on a paid invoice). */
const creditBalance = computed(
  FIELD_KINDS.money,
  (t) => `greatest(0, "${t}"."amountPaid" + "${t}"."amountCredited" - "${t}".total)::float8`,
);

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

  @Public.date({ description: 'Not before issueDate.' })
  dueDate!: string;

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

  @Public.money({ description: 'Sum of the payments against the invoice less their refunds (computed).' })
  amountPaid!: number;

  @Public.money({ description: 'Sum of the totals of the credit notes issued against the invoice (computed).' })
  amountCredited!: number;

  @Public.of(amountDue, {
    description: '0 when void; else total − amountPaid − amountCredited, never below 0 (computed).',
  })
  amountDue!: number;

  @Public.of(creditBalance, {
    description:
      'What is owed back to the contact: amountPaid + amountCredited − total, never below 0 (a credit note ' +
      'against a paid invoice leaves one; refunds of its payments bring it back to 0) (computed).',
  })
  creditBalance!: number;

  @Public.of(oneOf(INVOICE_STATUSES), {
    description:
      'draft → open (action) → paid (when payments and issued credit notes cover the total; open again when a ' +
      'refund leaves part unpaid); void from draft or open while nothing is paid or credited.',
  })
  status!: (typeof INVOICE_STATUSES)[number];

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
