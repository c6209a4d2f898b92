// The Invoice as every transport shows it (GraphQL, REST, OpenAPI, events):
// its lines from their jsonb column, and what it still owes computed by the
// same select list as its columns.
import { Float, ObjectType } from 'type-graphql';
import { z } from 'zod';
import {
  computed,
  FIELD_KINDS,
  objectList,
  oneOf,
  Public,
  storedObjectList,
  type FieldKind,
} from '../../kit/fields.js';
import { overdueKind, paymentTermsKind } from '../terms/overdue-sql.js';

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void'] as const;

const decimal: FieldKind = { ...FIELD_KINDS.int, graphql: () => Float, schema: () => z.number() };

@ObjectType({
  simpleResolvers: true,
  description: 'A tax rate applied to an amount: on a line, or summed over a document’s lines.',
})
export class TaxAmount {
  @Public.id({ description: 'The tax rate (txr_…).' })
  taxRateId!: string;

  @Public.text({ description: 'The rate’s name when the amounts were computed.' })
  name!: string;

  @Public.text({ description: 'The rate’s percent, a decimal string ("19", "8.875").' })
  percentage!: string;

  @Public.boolean({ description: 'Whether the amount taxed includes the tax.' })
  inclusive!: boolean;

  @Public.money({ description: 'What the rate applies to: the net amount, inclusive taxes taken out.' })
  taxableAmount!: number;

  @Public.money({ description: 'The tax, rounded half up to the minor unit per line.' })
  amount!: number;
}

@ObjectType({ simpleResolvers: true, description: 'One line of an invoice.' })
export class InvoiceLine {
  @Public.text()
  description!: string;

  @Public.of(decimal, { description: 'Positive, at most 3 decimals.' })
  quantity!: number;

  @Public.money({ description: 'Integer minor units per unit.' })
  unitAmount!: number;

  @Public.text({ nullable: true, description: 'Percent taken off quantity × unitAmount, a decimal string ("10").' })
  discountPercent!: string | null;

  @Public.money({ nullable: true, description: 'Minor units taken off quantity × unitAmount.' })
  discountAmount!: number | null;

  @Public.money({
    description:
      'What is taken off: quantity × unitAmount × discountPercent / 100 rounded half up, or discountAmount (computed).',
  })
  discount!: number;

  @Public.money({
    description:
      'quantity × unitAmount rounded half up to the minor unit, less the discount; inclusive taxes are in it, ' +
      'exclusive ones are not (computed).',
  })
  amount!: number;

  @Public.idList({ description: 'The tax rates applied (txr_…), each to the net amount; none: [].' })
  taxRateIds!: string[];

  @Public.of(objectList(TaxAmount), { description: 'One per rate of taxRateIds, in its order (computed).' })
  taxes!: TaxAmount[];
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

  @Public.money({ description: 'Sum of the lines’ quantity × unitAmount, before discounts (computed).' })
  subtotal!: number;

  @Public.money({ description: 'Sum of the lines’ discounts (computed).' })
  discountTotal!: number;

  @Public.money({ description: 'Sum of every tax of the lines, inclusive and exclusive (computed).' })
  taxTotal!: number;

  @Public.of(storedObjectList(TaxAmount), {
    description: 'Per tax rate, in the order the lines first name them: its taxable amount and tax, summed (computed).',
  })
  taxes!: TaxAmount[];

  @Public.money({ description: 'subtotal − discountTotal + the exclusive taxes (computed).' })
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

  @Public.of(overdueKind(amountDue), {
    description: "Open, with an amount due, and its dueDate before today in the organization's time zone (computed).",
  })
  overdue!: boolean;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
