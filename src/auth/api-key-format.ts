// What an API key looks like, shared by the service that issues keys and the
// resolver that checks them (docs/decisions.md, "Authentication": key format, hashing).
import { hashIssuedSecret, randomToken, sha256Hex } from './secrets.js';

export const API_KEY_PREFIX = 'bpk_';
export const API_KEY_SECRET_PREFIX = 'bps_';
/** How many characters of a key are kept in clear to recognise it in lists. */
const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/**
 * Subscribers (every server process) drop their cached credentials that depend on
 * the id a NOTIFY on this channel carries (a key, token, grant, app or user). The
 * name is the one it had when it carried only keys: processes of both ages share it.
 */
export const CREDENTIAL_CHANGED_CHANNEL = 'api_key_changed';

export interface GeneratedKey {
  key: string;
  prefix: string;
  keyHash: string;
}

export function generateKey(): GeneratedKey {
  const key = API_KEY_PREFIX + randomToken(40);
  return { key, prefix: key.slice(0, VISIBLE_PREFIX_LENGTH), keyHash: sha256Hex(key) };
}

export function generateSecret(): { value: string; hash: string } {
  const value = API_KEY_SECRET_PREFIX + randomToken(40);
  return { value, hash: hashIssuedSecret(value) };
}
