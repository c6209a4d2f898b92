// Identifiers: a type prefix (so a stray id says what it is) and a ULID, which
// sorts by creation time and keeps the (organization, createdAt, id) index compact.
import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

export const ID_PREFIX = {
  organization: 'org',
  user: 'usr',
  apiKey: 'key',
  contact: 'con',
  deal: 'deal',
  event: 'evt',
  webhook: 'whk',
  webhookDelivery: 'whd',
  oauthApp: 'oap',
  oauthCode: 'ocd',
  accessToken: 'oat',
  refreshToken: 'ort',
  session: 'ses',
  employee: 'emp',
  attendance: 'att',
  leaveRequest: 'lve',
  payrollRun: 'pay',
  payrollItem: 'pit',
  expense: 'exp',
  invoice: 'inv',
  payment: 'pmt',
  export: 'xpt',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

// ulid asks its random source once per character; its default calls
// crypto.getRandomValues each time. Serve those from a buffer refilled 4 KiB at
// a time (still crypto-strong): a byte / 256 keeps every character equally likely.
let pool = randomBytes(4096);
let next = 0;
function randomFraction(): number {
  if (next === pool.length) {
    pool = randomBytes(4096);
    next = 0;
  }
  return pool[next++]! / 256;
}

/** Whether `value` could be an id of this kind; a malformed id is simply not found. */
export function isWellFormedId(kind: IdKind, value: string): boolean {
  return value.length === ID_PREFIX[kind].length + 27 && new RegExp(`^${ID_PREFIX[kind]}_[0-9a-z]{26}$`).test(value);
}

// Monotonic within a process: ids made in the same millisecond (an update's
// deal.stage_changed and deal.closed) still sort in the order they were made.
const ulid = monotonicFactory(randomFraction);

export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${ulid(Date.now()).toLowerCase()}`;
}
