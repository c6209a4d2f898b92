// Holidays, declared once (see kit/resource.ts): the organization's days off
// besides its working week (Organization.workingDays). A leave request's `days`
// leaves them out (src/graphql/hr/calendar/working-days.ts). A holiday added or
// removed later does not change the `days` of requests already made: a request's
// days are counted again when it is approved, or when its dates change.
import { event } from '../../../events/event.js';
import { defineResource } from '../../kit/define-resource.js';
import { AREAS } from '../../kit/resource.js';
import { addDays } from '../calendar/working-days.js';
import { holidayInput, holidayList } from './input.js';
import { Holiday } from './type.js';

export const holidays = defineResource({
  type: Holiday,
  idPrefix: 'hol',
  area: AREAS.hr,
  path: 'holidays',
  names: { one: 'holiday', many: 'holidays' },
  input: holidayInput,
  list: holidayList,
  operations: { delete: true },
  unique: { date: 'A holiday on this date already exists in the organization' },
  events: {
    created: event('holiday.created', 'A holiday was added (POST /hr/holidays).'),
    updated: event('holiday.updated', 'A holiday was changed (PUT /hr/holidays/:id).'),
    deleted: event(
      'holiday.deleted',
      'A holiday was deleted (DELETE /hr/holidays/:id); data.object is the holiday as it was.',
    ),
  },
  descriptions: {
    create:
      "A day off besides the working week: leave requests made or approved from now on don't count it. " +
      'Emits `holiday.created`.',
  },
  examples: {
    // From 2100 on, one day per n: the suites' leave examples (2026) keep their working days.
    create: (n) => ({ date: addDays('2100-01-01', n), name: `Founders' day ${n}` }),
    update: { name: 'Renamed holiday' },
  },
});
