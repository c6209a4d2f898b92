// Tax rates, declared once (see kit/resource.ts). Particular to them: the
// percentage and inclusive are fixed at creation (like Stripe's), so an invoice
// stays explained by the rates it names; a rate named by an invoice line cannot
// be deleted (the foreign key of InvoiceTaxRate, written with the invoice:
// see lines.ts), only deactivated; an inactive rate is refused on new lines.
import { event } from '../../../events/event.js';
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { taxRateInput, taxRateList } from './input.js';
import { TaxRate } from './type.js';

export const taxRates = defineResource({
  type: TaxRate,
  idPrefix: 'txr',
  area: AREAS.finance,
  path: 'tax-rates',
  names: { one: 'taxRate', many: 'taxRates' },
  input: taxRateInput,
  list: taxRateList,
  operations: { delete: true },
  events: {
    created: event('tax_rate.created', 'A tax rate was created (POST /finance/tax-rates).'),
    updated: event('tax_rate.updated', 'A tax rate was changed (PUT /finance/tax-rates/:id).'),
    deleted: event(
      'tax_rate.deleted',
      'A tax rate was deleted (DELETE /finance/tax-rates/:id); data.object is the rate as it was.',
    ),
  },
  conflicts: {
    delete: 'The tax rate is used on invoice lines: deactivate it instead (PUT {"active": false})',
  },
  descriptions: {
    create: 'The percentage and inclusive cannot change afterwards. Emits `tax_rate.created`.',
    update:
      'name, description and active; percentage and inclusive only at their values (another is a 400 naming ' +
      'the field: make a new rate). Emits `tax_rate.updated`.',
    delete: 'Only while no invoice line names the rate (409 naming `id`: deactivate it instead).',
  },
  examples: {
    create: (n) => ({ name: `VAT ${n}`, description: 'Standard rate', percentage: '19', inclusive: false }),
    update: { name: 'VAT (standard)', active: false },
  },
});
