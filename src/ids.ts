// Identifiers: a type prefix (so a stray id says what it is) and a ULID, which
// sorts by creation time and keeps the (organization, createdAt, id) index compact.
import { ulid } from 'ulid';

export const ID_PREFIX = {
  organization: 'org',
  user: 'usr',
  apiKey: 'key',
  contact: 'con',
  event: 'evt',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${ulid().toLowerCase()}`;
}
