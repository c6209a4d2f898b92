// The feed's cursor: opaque to clients (base64url), bound to the organization
// it was read in, so one organization's cursor is a 400 in another's, and to the
// `resources` it was read with: a cursor advanced under resources=contacts has
// passed other resources' changes unread, so it is refused for any resource it
// was not read with (docs/decisions.md, "Change feed: the ends").
//   c1:<organization>:<position>                   read with every resource (or an export's)
//   c1:<organization>:<position>:<name>,<name>…     read with those resources only
import { DomainError } from '../errors.js';

/** Longest cursor text taken: every resource's name fits. */
export const CHANGE_CURSOR_MAX_LENGTH = 1000;

export interface ChangeCursor {
  position: bigint;
  /** The resources it was read with, sorted; undefined: every resource. */
  resources?: string[];
}

/** The resources a cursor read with `resources` is bound to: sorted, once each; undefined for all. */
export function cursorResources(resources: readonly string[] | undefined): string[] | undefined {
  return resources && [...new Set(resources)].sort();
}

export function encodeChangeCursor(organizationId: string, position: bigint, resources?: readonly string[]): string {
  const bound = cursorResources(resources);
  const text = `c1:${organizationId}:${position}${bound ? `:${bound.join(',')}` : ''}`;
  return Buffer.from(text).toString('base64url');
}

const invalid = (why: string) => new DomainError('VALIDATION_ERROR', `'after': ${why}`, 'after');

/** The cursor's position and binding; 400 for a cursor that is not ours or not this organization's. */
export function decodeChangeCursor(organizationId: string, cursor: string): ChangeCursor {
  const notOne = () => invalid('is not a change cursor (a previous answer’s next, or an export’s changesCursor)');
  if (cursor.length > CHANGE_CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw notOne();
  const match = /^c1:([^:]+):(\d{1,19})(?::([a-z_-]+(?:,[a-z_-]+)*))?$/.exec(
    Buffer.from(cursor, 'base64url').toString(),
  );
  if (!match) throw notOne();
  if (match[1] !== organizationId) throw invalid('is a cursor of another organization');
  return { position: BigInt(match[2]!), ...(match[3] && { resources: match[3].split(',') }) };
}

/**
 * Refuses to read `resources` (undefined: every one) after a cursor that was not
 * read with each of them: it may have passed their changes. Fewer is safe.
 */
export function checkCursorResources(cursor: ChangeCursor, resources: readonly string[] | undefined): void {
  if (!cursor.resources) return;
  const readWith = cursor.resources;
  const missing = resources ? resources.filter((name) => !readWith.includes(name)) : undefined;
  if (missing && !missing.length) return;
  const others = missing ? `${missing.join(', ')} too` : 'every resource';
  throw invalid(
    `was read with resources=${readWith.join(',')} and has passed other resources’ changes unread: ` +
      `follow it with resources=${readWith.join(',')} (or some of them). To read ${others}, ` +
      'start from an export’s changesCursor, or without after',
  );
}
