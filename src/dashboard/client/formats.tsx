// How values read in the dashboard: dates and instants in one format, wire
// values as words, states as badges, money in its currency.

// One format for every date and time the dashboard shows: "28 Nov 2026" and
// "28 Nov 2026, 15:11:04" (seconds: order matters in logs and histories).
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** An instant (ISO 8601 or Unix seconds) in the viewer's time zone, with seconds. */
export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return dateTimeFormat.format(new Date(typeof value === 'number' ? value * 1000 : value));
}

/** A calendar date (`2026-11-28`) as it is written, whatever the viewer's time zone. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/** A wire value (`in_progress`, `won`) as words: "In progress", "Won". */
export function humanize(value: string): string {
  const words = value
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How a state reads at a glance; a state not named here is neutral. */
const TONES: Record<string, 'ok' | 'warn' | 'bad' | 'info'> = {
  active: 'ok',
  approved: 'ok',
  paid: 'ok',
  won: 'ok',
  processed: 'ok',
  reimbursed: 'ok',
  issued: 'ok',
  succeeded: 'ok',
  delivered: 'ok',
  completed: 'ok',
  open: 'info',
  pending: 'warn',
  submitted: 'warn',
  draft: 'info',
  retrying: 'warn',
  overdue: 'bad',
  rejected: 'bad',
  lost: 'bad',
  void: 'bad',
  failed: 'bad',
  terminated: 'bad',
  cancelled: 'bad',
  revoked: 'bad',
  expired: 'bad',
};

/** A state as a labelled badge: words, not the wire value, and a tone that is never the only cue. */
export function StatusBadge({ value, label }: { value: string | null | undefined; label?: string }) {
  if (!value) return <>—</>;
  return <span class={`badge badge-${TONES[value] ?? 'neutral'}`}>{label ?? humanize(value)}</span>;
}

// One formatter per currency: making one costs far more than using it, and a
// list of 50 shows 100 amounts or more.
const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number } | null>();

function moneyFormat(currency: string) {
  let entry = moneyFormats.get(currency);
  if (entry === undefined) {
    try {
      const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
      entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    } catch {
      entry = null; // a code Intl refuses: shown as it is
    }
    moneyFormats.set(currency, entry);
  }
  return entry;
}

/** An amount in minor units, in its currency. */
export function formatMoney(amount: number, currency: string): string {
  const entry = moneyFormat(currency);
  return entry ? entry.format.format(amount / 10 ** entry.digits) : `${amount} ${currency}`;
}
