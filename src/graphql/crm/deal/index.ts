// Deals, declared once (see kit/resource.ts): the stage lifecycle of
// docs/decisions.md ("Deals") moves through PUT, and the contact a deal names must be one of
// the same organization. Deal.contact and Contact.deals live here, beside the
// deals, so the contact folder knows nothing of deals.
import { event } from '../../../events/event.js';
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { contacts } from '../contact/index.js';
import { dealInput, dealList } from './input.js';
import { CLOSED_STAGES, Deal, OPEN_STAGES } from './type.js';

export const deals = defineResource({
  type: Deal,
  idPrefix: 'deal',
  area: AREAS.crm,
  path: 'deals',
  names: { one: 'deal', many: 'deals' },
  input: dealInput,
  list: dealList,
  operations: { delete: true },
  references: {
    contactId: {
      target: contacts,
      onDelete: 'set null',
      description: 'The contact, if any (null once it is deleted).',
    },
  },
  events: {
    created: event('deal.created', 'A deal was created (POST /crm/deals).'),
    updated: event('deal.updated', 'A deal was changed (PUT /crm/deals/:id), its stage included.'),
    deleted: event('deal.deleted', 'A deal was deleted (DELETE /crm/deals/:id); data.object is the deal as it was.'),
  },
  lifecycle: {
    field: 'stage',
    initial: 'lead',
    startsIn: OPEN_STAGES,
    // A won or lost deal is a record of what happened: no amount or contact changes afterwards.
    editableIn: OPEN_STAGES,
    final: { states: CLOSED_STAGES, name: 'closed' },
    update: {
      event: event('deal.stage_changed', "A deal's stage changed (previousAttributes.stage holds the old one)."),
      finalEvent: event('deal.closed', 'A deal was won or lost.'),
      stampFinal: 'closedAt',
    },
  },
  descriptions: {
    create: 'Starts at `lead` unless another open stage is given. Emits `deal.created`.',
    update:
      'Partial: fields sent are changed, omitted are kept, null clears an optional field. ' +
      'Emits `deal.updated` when anything changes; a stage change also emits `deal.stage_changed`, and `won` or ' +
      '`lost` sets `closedAt` and emits `deal.closed`. ' +
      'A won or lost deal cannot be edited (409 naming its stage).',
    delete: 'Emits `deal.deleted` (data.object: the deal as it was).',
  },
  examples: {
    create: (n) => ({ title: `Deal ${n}`, amount: 1000 * n, currency: 'EUR', expectedCloseDate: '2031-03-31' }),
    update: { stage: 'qualified', title: 'Renamed' },
  },
});
