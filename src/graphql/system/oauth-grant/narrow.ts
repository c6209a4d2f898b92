// When an app's registered scopes shrink, what it already holds shrinks with
// them: each live access and refresh token keeps only the scopes the app still
// has (in their order), and one left with none is revoked. Runs inside the
// change's transaction; the caller NOTIFYs the app's id (changeCredentials) so
// every process drops its cached copies of the app's tokens and reads the new
// scopes. Unused codes need nothing: an exchange bounds them by the app's
// scopes of that moment (src/oauth/model.ts).
import type { RuleContext } from '../../kit/lifecycle.js';

const TABLES = ['OAuthAccessToken', 'OAuthRefreshToken'] as const;

/** Live rows only: revoked, expired and (refresh) rotated ones are left as they were. */
const LIVE: Record<(typeof TABLES)[number], string> = {
  OAuthAccessToken: `"revokedAt" is null and "expiresAt" > now()`,
  OAuthRefreshToken: `"revokedAt" is null and "rotatedAt" is null and "expiresAt" > now()`,
};

/** Narrows the app's live tokens to `scopes`, in the transaction of the app's update (its rule's `query`). */
export async function narrowAppTokens(rules: Pick<RuleContext, 'query'>, appId: string, scopes: readonly string[]) {
  for (const table of TABLES) {
    await rules.query(
      `update "${table}" set "revokedAt" = now()
        where "appId" = $1 and ${LIVE[table]} and not (scopes && $2::text[])`,
      [appId, scopes],
    );
    await rules.query(
      `update "${table}"
          set scopes = array(select s from unnest(scopes) with ordinality as kept(s, n) where s = any($2::text[]) order by n)
        where "appId" = $1 and ${LIVE[table]} and not (scopes <@ $2::text[])`,
      [appId, scopes],
    );
  }
}
