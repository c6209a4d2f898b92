// Where a record of an event lives in the dashboard: `/${area}/${resource}/${id}`
// (the REST path without /v1), told by the id's prefix, which each resource
// declares (src/graphql/*/*/index.ts, idPrefix; src/ids.ts for webhooks and
// users, whose pages are under Developers and Settings). A catalogue of
// resources served with the page could replace this table.
import { formatDate } from '../../ui.js';

const PATHS: Record<string, string> = {
  con: '/crm/contacts',
  deal: '/crm/deals',
  inv: '/finance/invoices',
  crn: '/finance/credit-notes',
  pmt: '/finance/payments',
  exp: '/finance/expenses',
  txr: '/finance/tax-rates',
  emp: '/hr/employees',
  dep: '/hr/departments',
  att: '/hr/attendance',
  lve: '/hr/leave-requests',
  lvp: '/hr/leave-policies',
  hol: '/hr/holidays',
  pay: '/hr/payroll-runs',
  pcp: '/hr/pay-components',
  cmp: '/hr/compensation',
  whk: '/developers/webhooks',
  usr: '/settings/users',
};

/** The record's dashboard path, or undefined for an id of no record page. */
export function recordPath(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const prefix = id.slice(0, id.indexOf('_'));
  const base = PATHS[prefix];
  return base ? `${base}/${encodeURIComponent(id)}` : undefined;
}

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
