// Invoice input (lines as objects: their own GraphQL input type) and list arguments.
import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Float, ID, InputType } from 'type-graphql';
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, searchOver } from '../../kit/list.js';
import { calendarDate, currency, minorUnits, text } from '../../kit/values.js';
import { percentageSchema } from '../percentage.js';
import { paymentTermsDays } from '../terms/days.js';
import { overdueFilter } from '../terms/overdue-filter.js';
import { INVOICE_STATUSES } from './type.js';

const MAX_QUANTITY = 1_000_000_000;

// String(q) is the shortest form that reads back as q: 0.1 + 0.2 shows 17 decimals and is refused.
const quantity = z
  .number('must be a number')
  .positive('must be positive')
  .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`)
  .refine((q) => /^\d+(\.\d{1,3})?$/.test(String(q)), 'must have at most 3 decimals')
  // For the document only: zod's own multipleOf divides in binary and refuses some 3-decimal values.
  .meta({ multipleOf: 0.001 });

/** As many as Stripe takes on a line item. */
export const MAX_TAX_RATES_PER_LINE = 10;

const taxRateIds = z
  .array(z.string('must be a tax rate id'), 'must be an array of tax rate ids')
  .max(MAX_TAX_RATES_PER_LINE, `must name at most ${MAX_TAX_RATES_PER_LINE} tax rates`)
  .refine((ids) => new Set(ids).size === ids.length, 'must name each tax rate once');

// A line's tax as read (sent back with it): compared with the computed one (amounts.ts).
const taxAmount = z.strictObject({
  taxRateId: z.string('must be a tax rate id'),
  name: z.string('must be a string'),
  percentage: z.string('must be a decimal string'),
  inclusive: z.boolean('must be true or false'),
  taxableAmount: z.number('must be a number'),
  amount: z.number('must be a number'),
});

export const invoiceLine = z.strictObject({
  description: text(500),
  quantity,
  unitAmount: minorUnits,
  discountPercent: percentageSchema({ min: 0, max: 100, aboveMin: true }).nullish(),
  discountAmount: minorUnits.nullish(),
  taxRateIds: taxRateIds.nullish(),
  // Shown in a line as read: accepted so a read invoice can be sent back, at their computed values only (amounts.ts).
  discount: z.number('must be a number').nullish(),
  amount: z.number('must be a number').nullish(),
  taxes: z.array(taxAmount, 'must be an array of taxes').nullish(),
});

@InputType({ description: 'A tax of a line as read: accepted back only as computed (the name is not compared).' })
export class TaxAmountInput {
  @Field(() => ID)
  taxRateId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  percentage!: string;

  @Field(() => Boolean)
  inclusive!: boolean;

  @Field(() => GraphQLSafeInt)
  taxableAmount!: number;

  @Field(() => GraphQLSafeInt)
  amount!: number;
}

@InputType({ description: 'One line of an invoice; its discount, amount and taxes are computed.' })
export class InvoiceLineInput {
  @Field(() => String)
  description!: string;

  @Field(() => Float, { description: 'Positive, at most 3 decimals.' })
  quantity!: number;

  @Field(() => GraphQLSafeInt, { description: 'Integer minor units per unit, 0 or more.' })
  unitAmount!: number;

  @Field(() => String, {
    nullable: true,
    description: 'Percent off quantity × unitAmount, a decimal string above 0 and at most 100 ("10", "12.5").',
  })
  discountPercent?: string;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'Minor units off, at most quantity × unitAmount; not with discountPercent.',
  })
  discountAmount?: number;

  @Field(() => [ID], {
    nullable: true,
    description: `Active tax rates of the organization (txr_…), at most ${MAX_TAX_RATES_PER_LINE}, each once.`,
  })
  taxRateIds?: string[];

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'Computed; another value is refused.' })
  discount?: number;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'Computed: quantity × unitAmount rounded half up, less the discount; another value is refused.',
  })
  amount?: number;

  @Field(() => [TaxAmountInput], { nullable: true, description: 'Computed; other values are refused.' })
  taxes?: TaxAmountInput[];
}

export const invoiceInput = defineInput('Invoice', {
  number: optional(text(50), {
    description: 'Unique in the organization; default the next INV-000001, … (null in an update assigns it).',
  }),
  contactId: required(z.string('must be a contact id'), { description: 'A contact of the organization.' }),
  currency: required(currency, { description: 'ISO 4217 code, any case; stored upper-case.' }),
  issueDate: optional(calendarDate, {
    description:
      "YYYY-MM-DD; default today in the organization's time zone (null in an update resets it; moved alone, the " +
      'dueDate moves with it).',
  }),
  dueDate: optional(calendarDate, {
    description:
      'YYYY-MM-DD, not before issueDate; default issueDate + paymentTermsDays. Given, it wins over any default ' +
      'terms (null in an update resets it to the default).',
  }),
  paymentTermsDays: optional(paymentTermsDays, {
    stored: false,
    description:
      "Days from issueDate to dueDate, 0 to 3650; default the contact's, else the organization's. With a dueDate " +
      'too it must agree with it (null in an update resets it to the default).',
  }),
  lines: required(z.array(invoiceLine, 'must be an array of lines').min(1, 'must have at least 1 line').max(100), {
    graphql: () => [InvoiceLineInput],
    description:
      '1 to 100 lines; each amount is quantity × unitAmount rounded half up to the minor unit, less its discount ' +
      '(discountPercent or discountAmount); taxRateIds name tax rates (docs: Taxes and discounts).',
  }),
  notes: optional(text(2000)),
});

const status = z.enum(INVOICE_STATUSES, { message: `must be one of ${INVOICE_STATUSES.join(', ')}` });
// What q searches (its trigram index is in the migration): number and line descriptions.
const searched = `("Invoice".number || ' ' || (jsonb_path_query_array("Invoice".lines, '$[*].description')::text))`;

export const invoiceList = defineList('Invoice', {
  sort: ['createdAt', 'updatedAt', 'issueDate', 'dueDate', 'number'],
  filters: {
    status: filter(status, { description: 'Invoices with this status.', where: (p) => `"Invoice".status = ${p}` }),
    contactId: filter(text(100), {
      description: 'Invoices to this contact.',
      where: (p) => `"Invoice"."contactId" = ${p}`,
    }),
    from: filter(calendarDate, {
      description: 'Issued on or after this day.',
      where: (p) => `"Invoice"."issueDate" >= ${p}::date`,
    }),
    to: filter(calendarDate, {
      description: 'Issued on or before this day.',
      where: (p) => `"Invoice"."issueDate" <= ${p}::date`,
    }),
    overdue: overdueFilter,
    q: searchOver('Invoice', searched, {
      schema: text(200),
      description: 'Text search over the number and the lines’ descriptions.',
    }),
  },
});
