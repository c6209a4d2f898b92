// What OAuth secrets look like: client ids and secrets, authorization codes,
// access and refresh tokens. Each has a recognisable prefix (so a leaked one is
// easy to spot and to scan for) and 40 random base62 characters (238 bits),
// inside RFC 6750's Bearer alphabet. All but the client id are stored only as
// SHA-256: they are high-entropy, so a fast hash is safe and lookups stay cheap.
// `hash` here is the lookup form (codes, tokens, sessions); a client secret is
// stored as hashIssuedSecret makes it (auth/secrets.ts).
import { randomToken, sha256Hex } from './secrets.js';

export const OAUTH_PREFIX = {
  clientId: 'bpc_',
  clientSecret: 'bpcs_',
  code: 'bpac_',
  accessToken: 'bpat_',
  refreshToken: 'bprt_',
  session: 'bpss_',
} as const;

export type OAuthSecretKind = keyof typeof OAUTH_PREFIX;

export interface GeneratedSecret {
  value: string;
  hash: string;
}

export function generateOAuthSecret(kind: OAuthSecretKind): GeneratedSecret {
  const value = OAUTH_PREFIX[kind] + randomToken(40);
  return { value, hash: sha256Hex(value) };
}

/** Whether a value has the shape of this kind (a cheap refusal before any lookup). */
export function looksLike(kind: OAuthSecretKind, value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length === OAUTH_PREFIX[kind].length + 40 &&
    value.startsWith(OAUTH_PREFIX[kind]) &&
    /^[0-9A-Za-z_]+$/.test(value)
  );
}
