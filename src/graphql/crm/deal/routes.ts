import { resourceRoutes } from '../../kit/routes.js';
import { dealInput, dealList } from './input.js';
import { Deal } from './type.js';

export const dealRoutes = resourceRoutes({
  path: '/crm/deals',
  tag: 'CRM',
  type: Deal,
  noun: ['deal', 'deals'],
  list: dealList,
  input: dealInput,
  descriptions: {
    create: 'Starts at `lead` unless another open stage is given. Emits `deal.created`.',
    update:
      'Partial: fields sent are changed, omitted are kept, null clears an optional field. ' +
      'A stage change emits `deal.stage_changed`; `won` or `lost` also sets `closedAt` and emits `deal.closed`. ' +
      "A closed deal's stage cannot change (409).",
    delete: 'No event.',
  },
  conflicts: { update: "The deal is won or lost: a closed deal's stage cannot change" },
});
