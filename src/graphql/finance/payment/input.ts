// Payment input, list arguments and the refund and allocate actions' inputs.
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';
import { defineActionInput, defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { calendarDate, utcDayStart, currency, minorUnits, text } from '../../kit/values.js';
import { hasNoNul, NUL_MESSAGE } from '../../../validation.js';
import { PAYMENT_METHODS } from './type.js';

export const paymentInput = defineInput('Payment', {
  invoiceId: optional(z.string('must be an invoice id'), {
    description: 'An open invoice of the organization; omitted: an unallocated payment.',
  }),
  amount: required(minorUnits.min(1, 'must be positive'), {
    graphql: () => GraphQLSafeInt,
    description: 'Positive integer minor units; at most what the invoice still owes.',
  }),
  currency: required(currency, { description: "ISO 4217 code; must be the invoice's." }),
  method: required(z.enum(PAYMENT_METHODS, { message: `must be one of ${PAYMENT_METHODS.join(', ')}` })),
  receivedAt: optional(z.iso.datetime('must be an ISO 8601 date-time in UTC'), { description: 'Default now.' }),
  reference: optional(text(200)),
});

export const paymentList = defineList('Payment', {
  sort: ['createdAt', 'receivedAt', 'amount'],
  filters: {
    invoiceId: filter(text(100), {
      description: 'Payments against this invoice.',
      where: (p) => `"Payment"."invoiceId" = ${p}`,
    }),
    from: filter(calendarDate, {
      description: 'Received on or after this day (UTC).',
      where: (p) => `"Payment"."receivedAt" >= ${utcDayStart(p)}`,
    }),
    to: filter(calendarDate, {
      description: 'Received on or before this day (UTC).',
      where: (p) => `"Payment"."receivedAt" < ${utcDayStart(p)} + interval '1 day'`,
    }),
  },
});

export const refundInput = defineActionInput('Payment', 'refund', {
  amount: required(minorUnits.min(1, 'must be positive'), {
    graphql: () => GraphQLSafeInt,
    description: 'Positive integer minor units; at most the amount less earlier refunds.',
  }),
  reason: required(text(500), { description: 'Why it is given back (up to 500 characters).' }),
});

export const allocateInput = defineActionInput('Payment', 'allocate', {
  // No NUL: PostgreSQL refuses it in text, which would be a 500 rather than this 400.
  invoiceId: required(z.string('must be an invoice id').refine(hasNoNul, NUL_MESSAGE), {
    description: "An open invoice of the organization in the payment's currency, owing at least its net amount.",
  }),
});
