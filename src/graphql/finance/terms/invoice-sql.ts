// The invoice's own SQL for what it owes and whether it is overdue, read off
// its public fields (../invoice/type.ts): the list filter, the worker's sweep
// and the aging report use the expression the invoice shows, so a change to
// how amountDue is computed (credits, void) reaches all of them at once.
import { fieldSqlOf } from '../../kit/field-sql.js';
import { Invoice } from '../invoice/type.js';
import { overdueWhen } from './overdue-sql.js';

/** What the invoice still owes (its `amountDue`), in SQL over `table`. */
export const amountDueOf = (table: string) => fieldSqlOf(Invoice, 'amountDue', table);

/** Whether it is overdue; `timeZone`: its organization's zone as a SQL expression, when known to the query. */
export const overdueOf = (table: string, timeZone?: string) => overdueWhen(table, amountDueOf(table), timeZone);
