// How the overview's activity names and links the record of an event: the
// link from the id alone (record-paths.ts, written into the page from the
// declarations), the name from the event's object.
import { formatDate } from '../../ui.js';

export { recordPath } from '../../record-paths.js';

/** What names a record in a sentence: its title, number, name, email or URL, its dates, else its id. */
export function recordLabel(object: Record<string, unknown>): string {
  const person = [object.firstName, object.lastName].filter((part) => typeof part === 'string' && part).join(' ');
  const dates = typeof object.from === 'string' && typeof object.to === 'string' ? spanOf(object.from, object.to) : '';
  const named = [object.title, object.number, object.name, person, object.email, object.url, dates, object.description];
  for (const candidate of named) {
    if (typeof candidate === 'string' && candidate) return candidate;
  }
  return String(object.id ?? 'a record');
}

/** A leave's days: one date, or the first and last. */
function spanOf(from: string, to: string): string {
  return from === to ? formatDate(from) : `${formatDate(from)} – ${formatDate(to)}`;
}
