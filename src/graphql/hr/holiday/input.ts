// Holiday input and list arguments.
import { defineInput, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { calendarDate, text } from '../../kit/values.js';

export const holidayInput = defineInput('Holiday', {
  date: required(calendarDate, { description: 'YYYY-MM-DD; unique in the organization.' }),
  name: required(text(200), { description: "What the day is: 'Christmas Day'." }),
});

export const holidayList = defineList('Holiday', {
  sort: ['createdAt', 'updatedAt', 'date', 'name'],
  filters: {
    from: filter(calendarDate, {
      description: 'Holidays on or after this day.',
      where: (p) => `"Holiday".date >= ${p}::date`,
    }),
    to: filter(calendarDate, {
      description: 'Holidays on or before this day.',
      where: (p) => `"Holiday".date <= ${p}::date`,
    }),
  },
});
