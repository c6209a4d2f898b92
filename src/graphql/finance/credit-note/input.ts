// Credit note input (the lines field is the invoice's own: one shape, one
// GraphQL input type) and list arguments.
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, searchFilter } from '../../kit/list.js';
import { calendarDate, utcDayStart, minorUnits, text } from '../../kit/values.js';
import { invoiceInput } from '../invoice/input.js';
import { CREDIT_NOTE_STATUSES } from './type.js';

const invoiceLines = invoiceInput.fields.lines;

export const creditNoteInput = defineInput('CreditNote', {
  invoiceId: required(z.string('must be an invoice id'), {
    createOnly: true,
    description: 'An open or paid invoice of the organization; its contact and currency are the credit note’s.',
  }),
  reason: required(text(500), { description: 'Why the invoice is credited (up to 500 characters).' }),
  lines: optional(invoiceLines.schema, {
    graphql: invoiceLines.graphql,
    description:
      'As an invoice’s lines, priced by the same rule; or give `amount` instead (exactly one of the two; ' +
      'giving one in an update clears the other).',
  }),
  amount: optional(minorUnits.min(1, 'must be positive'), {
    graphql: () => GraphQLSafeInt,
    description: 'A plain amount to credit, positive integer minor units; or give `lines` instead.',
  }),
});

const status = z.enum(CREDIT_NOTE_STATUSES, { message: `must be one of ${CREDIT_NOTE_STATUSES.join(', ')}` });

export const creditNoteList = defineList('CreditNote', {
  sort: ['createdAt', 'updatedAt', 'issuedAt', 'number', 'total'],
  filters: {
    status: filter(status, {
      description: 'Credit notes with this status.',
      where: (p) => `"CreditNote".status = ${p}`,
    }),
    invoiceId: filter(text(100), {
      description: 'Credit notes against this invoice.',
      where: (p) => `"CreditNote"."invoiceId" = ${p}`,
    }),
    contactId: filter(text(100), {
      description: 'Credit notes to this contact.',
      where: (p) => `"CreditNote"."contactId" = ${p}`,
    }),
    // As payments' from/to: UTC days, inclusive (a draft, not issued, is in neither).
    from: filter(calendarDate, {
      description: 'Issued on or after this day (UTC).',
      where: (p) => `"CreditNote"."issuedAt" >= ${utcDayStart(p)}`,
    }),
    to: filter(calendarDate, {
      description: 'Issued on or before this day (UTC).',
      where: (p) => `"CreditNote"."issuedAt" < ${utcDayStart(p)} + interval '1 day'`,
    }),
    q: searchFilter(
      'CreditNote',
      [
        { name: 'reason', nullable: false },
        { name: 'number', nullable: true },
      ],
      { schema: text(200), description: 'Text search over the reason and the number.' },
    ),
  },
});
