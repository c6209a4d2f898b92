/** The task that ends notice periods (end-notices.ts), by name for the crontab and the metrics. */
export const END_NOTICES = 'end_notices';
/** The task that raises invoice.overdue (overdue-invoices.ts), by name for the crontab and the metrics. */
export const OVERDUE_INVOICES = 'overdue_invoices';
