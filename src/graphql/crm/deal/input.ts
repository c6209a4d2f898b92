// Deal input and list arguments, each written once (see kit/inputs.ts, kit/list.ts).
import { GraphQLSafeInt } from 'graphql-scalars';
import { z } from 'zod';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, searchFilter } from '../../kit/list.js';
import { calendarDate, currency, minorUnits, text } from '../../kit/values.js';
import { DEAL_STAGES, OPEN_STAGES } from './type.js';

const stage = z.enum(DEAL_STAGES, { message: `must be one of ${DEAL_STAGES.join(', ')}` });
/** The stages a new deal may start at (the lifecycle's startsIn): won and lost are reached by a PUT. */
const startingStage = z.enum(OPEN_STAGES, {
  message: `a new deal starts at one of ${OPEN_STAGES.join(', ')}; won and lost close an existing one`,
});

export const dealInput = defineInput('Deal', {
  title: required(text(200)),
  amount: optional(minorUnits, {
    default: 0,
    graphql: () => GraphQLSafeInt,
    description: 'Integer minor units (cents for USD), 0 or more; default 0.',
  }),
  currency: required(currency, { description: 'ISO 4217 code; stored upper-case.' }),
  stage: optional(stage, {
    onCreate: startingStage,
    description: 'A new deal starts at lead unless another open stage is given; won and lost close it.',
  }),
  contactId: optional(z.string('must be a contact id'), { description: 'A contact of the organization.' }),
  expectedCloseDate: optional(calendarDate, { description: 'YYYY-MM-DD.' }),
});

export const dealList = defineList('Deal', {
  sort: ['createdAt', 'updatedAt', 'title', 'amount', 'expectedCloseDate', 'closedAt', 'stage'],
  filters: {
    stage: filter(stage, { description: 'Deals at this stage.', where: (p) => `"Deal".stage = ${p}` }),
    currency: filter(currency, {
      description: 'Deals in this currency (ISO 4217 code, any case).',
      where: (p) => `"Deal".currency = ${p}`,
    }),
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
