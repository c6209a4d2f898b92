// The feed's cursor: opaque to clients (base64url), bound to the organization
// it was read in, so one organization's cursor is a 400 in another's.
import { DomainError } from '../errors.js';

export function encodeChangeCursor(organizationId: string, position: bigint): string {
  return Buffer.from(`c1:${organizationId}:${position}`).toString('base64url');
}

/** The position after which to read; 400 for a cursor that is not ours or not this organization's. */
export function decodeChangeCursor(organizationId: string, cursor: string): bigint {
  const invalid = (why: string) => new DomainError('VALIDATION_ERROR', `'after': ${why}`, 'after');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid('is not a change cursor (a previous answer’s next)');
  const match = /^c1:([^:]+):(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw invalid('is not a change cursor (a previous answer’s next)');
  if (match[1] !== organizationId) throw invalid('is a cursor of another organization');
  return BigInt(match[2]!);
}
