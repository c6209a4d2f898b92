// The README's table of event types, made from the event catalogue: written into
// README.md by `npm run docs:events`, and compared with it by the tests, so a new
// resource's events reach the README by running the script, not by hand.
import { cataloguedEvent, EVENT_TYPES } from './catalogue.js';

export const EVENT_TABLE_START = '<!-- event table: written by npm run docs:events -->';
export const EVENT_TABLE_END = '<!-- end of the event table -->';

function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** The table: each event type, what raises it, the scope that reads it and its actor. */
export function eventTable(): string {
  const rows = EVENT_TYPES.map(cataloguedEvent).map(({ type, description, scope, actor }) => [
    `\`${type}\``,
    description,
    `\`${scope}\``,
    actor ?? 'the caller',
  ]);
  return markdownTable(['Event', 'Raised when', 'Read with', 'Actor'], rows);
}

/** The README with its event table (between the markers) replaced by the catalogue's. */
export function withEventTable(readme: string): string {
  const start = readme.indexOf(EVENT_TABLE_START);
  const end = readme.indexOf(EVENT_TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md has no event table markers');
  return `${readme.slice(0, start + EVENT_TABLE_START.length)}\n\n${eventTable()}\n\n${readme.slice(end)}`;
}
