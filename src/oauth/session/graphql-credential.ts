// The signed-in browser on /graphql (the dashboard): a request with no
// Authorization header but a session cookie is that session's user, provided it
// carries the cookie's CSRF token in X-CSRF-Token. The cookie alone proves
// nothing: a page of another site can make the browser send it (SameSite=Lax
// keeps it off cross-site POSTs, not off top-level GETs or same-site pages).
// A custom header cannot be sent across sites without a CORS preflight, which
// this service never grants, and the token is an HMAC of the cookie that only
// our own pages can read (csrf.ts). Only /graphql takes sessions; /v1 stays Bearer.
import type { CredentialResolver } from '../../auth/credentials.js';
import type { Principal } from '../../auth/principal.js';
import { userScopes } from '../../auth/user-scopes.js';
import type { SessionService } from '../../graphql/system/session/service.js';
import { RequestRefused, type ResolveCredential } from '../../http/authenticate.js';
import { CSRF_HEADER } from '../../http/graphql.js';
import { readSessionCookie } from './cookie.js';
import { validCsrf } from './csrf.js';

const csrfMissing = () =>
  new RequestRefused(
    'FORBIDDEN',
    'A request signed in with the session cookie must carry the X-CSRF-Token header of the page (its csrf-token meta tag)',
    'X-CSRF-Token',
  );

const sessionExpired = () => new RequestRefused('UNAUTHORIZED', 'Your session has expired or ended: sign in again');

/** The principal of a live session: its user's organization and current rights. */
export async function sessionPrincipal(
  sessions: SessionService,
  token: string | undefined,
): Promise<Principal | undefined> {
  const session = await sessions.findLive(token);
  if (!session) return undefined;
  const { user } = session;
  return {
    organizationId: user.organizationId,
    scopes: userScopes(user),
    credential: { type: 'session', id: session.id },
    userId: user.id,
    actor: { type: 'user', id: user.id },
    // One budget per user, however many browsers or sign-ins.
    rateLimitKey: `user:${user.id}`,
  };
}

/**
 * /graphql's credential: Bearer when an Authorization header is sent (as
 * everywhere), else the session cookie with its X-CSRF-Token, else none.
 */
export function bearerOrSession(credentials: CredentialResolver, sessions: SessionService): ResolveCredential {
  return async (req) => {
    const authorization = req.headers.authorization;
    const cookie = authorization ? undefined : readSessionCookie(req);
    if (!cookie) return credentials.resolve(authorization);
    // Checked first: a forged request is refused whatever the session. A page's token that
    // no longer matches the cookie is a page of an ended sign-in (signed out in another tab,
    // which sets a new cookie): said as such when the cookie's own session is not live either.
    const sent = req.headers[CSRF_HEADER];
    if (!validCsrf(req, sent)) {
      if (sent && !(await sessions.findLive(cookie))) throw sessionExpired();
      throw csrfMissing();
    }
    const principal = await sessionPrincipal(sessions, cookie);
    if (!principal) throw sessionExpired();
    return principal;
  };
}
