// Deal input and list arguments, each written once (see kit/inputs.ts, kit/list.ts).
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, searchFilter } from '../../kit/list.js';
import { text } from '../../kit/values.js';
import { DEAL_STAGES } from './type.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217, accepted in any case and stored upper-case. */
const currency = z
  .string('must be a string')
  .toUpperCase()
  .refine((code) => CURRENCIES.has(code), 'must be an ISO 4217 currency code, e.g. USD');

// z.int() is a safe integer: at most 2^53 - 1, which a bigint column and a JSON number both hold exactly.
const amount = z
  .int(`must be a whole number of minor units from 0 to ${Number.MAX_SAFE_INTEGER}`)
  .min(0, 'must not be negative');

const stage = z.enum(DEAL_STAGES, { message: `must be one of ${DEAL_STAGES.join(', ')}` });

/** A real calendar date; year 0 does not exist in PostgreSQL's calendar. */
const calendarDate = z.iso
  .date('must be a calendar date YYYY-MM-DD')
  .refine((date) => !date.startsWith('0000-'), 'must be a calendar date from 0001-01-01');

export const dealInput = defineInput('Deal', {
  title: required(text(200)),
  amount: optional(amount, {
    default: 0,
    graphql: () => GraphQLSafeInt,
    description: 'Integer minor units (cents for USD), 0 or more; default 0.',
  }),
  currency: required(currency, { description: 'ISO 4217 code; stored upper-case.' }),
  stage: optional(stage, {
    description: 'A new deal starts at lead unless another open stage is given; won and lost close it.',
  }),
  contactId: optional(z.string('must be a contact id'), { description: 'A contact of the organization.' }),
  expectedCloseDate: optional(calendarDate, { description: 'YYYY-MM-DD.' }),
});

export const dealList = defineList('Deal', {
  sort: ['createdAt', 'updatedAt', 'title', 'amount', 'expectedCloseDate', 'closedAt', 'stage'],
  filters: {
    stage: filter(stage, { description: 'Deals at this stage.', where: (p) => `"Deal".stage = ${p}` }),
    contactId: filter(text(100), {
      description: 'Deals of this contact.',
      where: (p) => `"Deal"."contactId" = ${p}`,
    }),
    q: searchFilter('Deal', [{ name: 'title', nullable: false }], {
      schema: text(200),
      description: 'Text search in the title.',
    }),
  },
});
