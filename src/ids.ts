// Identifiers: a type prefix (so a stray id says what it is) and a ULID, which
// sorts by creation time and keeps the (organization, createdAt, id) index compact.
// A declared resource names its own prefix (`idPrefix` on its declaration,
// src/graphql/kit/resource.ts); ID_PREFIX holds the kinds no declaration owns.
import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

export const ID_PREFIX = {
  organization: 'org',
  user: 'usr',
  apiKey: 'key',
  event: 'evt',
  webhook: 'whk',
  webhookDelivery: 'whd',
  oauthApp: 'oap',
  oauthCode: 'ocd',
  accessToken: 'oat',
  refreshToken: 'ort',
  session: 'ses',
  payrollItem: 'pit',
  export: 'xpt',
  import: 'imp',
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

const ULID_PART = /^[0-9a-z]{26}$/;

/**
 * Whether `value` could be an id with this prefix; a malformed id is simply not
 * found. Checked without a pattern per prefix: it runs on every read by id.
 */
export function isWellFormedIdWith(prefix: string, value: string): boolean {
  return (
    value.length === prefix.length + 27 &&
    value.startsWith(prefix) &&
    value[prefix.length] === '_' &&
    ULID_PART.test(value.slice(prefix.length + 1))
  );
}

/** Whether `value` could be an id of this kind. */
export function isWellFormedId(kind: IdKind, value: string): boolean {
  return isWellFormedIdWith(ID_PREFIX[kind], value);
}

// Monotonic within a process: ids made in the same millisecond (an update's
// deal.stage_changed and deal.closed) still sort in the order they were made.
const ulid = monotonicFactory(randomFraction);

/** A new id with this prefix: a declared resource's (`con_…`). */
export function newIdWith(prefix: string): string {
  return `${prefix}_${ulid(Date.now()).toLowerCase()}`;
}

export function newId(kind: IdKind): string {
  return newIdWith(ID_PREFIX[kind]);
}
