// Tax rate input and list arguments. The percentage and inclusive are fixed at
// creation (createOnly): an invoice that used a rate must stay explained by it.
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, searchFilter } from '../../kit/list.js';
import { booleanFlag, text } from '../../kit/values.js';
import { percentageSchema } from '../percentage.js';

/** Below 1000 %: some excise taxes exceed 100 %, none comes near 1000. */
export const MAX_TAX_PERCENTAGE = 999.9999;

export const taxRateInput = defineInput('TaxRate', {
  name: required(text(100), { description: 'What invoices show for the tax: "VAT", "Sales tax (NY)".' }),
  description: optional(text(500)),
  percentage: required(percentageSchema({ min: 0, max: MAX_TAX_PERCENTAGE }), {
    createOnly: true,
    description:
      `Percent as a decimal string from 0 to ${MAX_TAX_PERCENTAGE}, at most 4 decimals ("19", "8.875"); ` +
      'shown in its shortest form. Fixed when the rate is created: a PUT may only send it at its value.',
  }),
  inclusive: optional(z.boolean('must be true or false'), {
    createOnly: true,
    default: false,
    description:
      'true: line amounts include the tax; false (default): it is added on top. Fixed when the rate is created.',
  }),
  active: optional(z.boolean('must be true or false'), {
    default: true,
    description: 'Default true; false keeps the rate off new and edited invoice lines (invoices that use it keep it).',
  }),
});

export const taxRateList = defineList('TaxRate', {
  sort: ['createdAt', 'updatedAt', 'name'],
  filters: {
    active: filter(booleanFlag, {
      description: 'Active (true) or inactive (false) rates.',
      where: (p) => `"TaxRate".active = ${p}`,
    }),
    q: searchFilter('TaxRate', [{ name: 'name', nullable: false }], {
      schema: text(200),
      description: 'Text search over the name.',
    }),
  },
});
