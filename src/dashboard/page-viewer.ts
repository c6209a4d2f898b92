// Who the page is for, carried by the page itself: the fields the app's frame
// used to ask /graphql's `viewer` for once the script had run. Written into the
// HTML, a full load no longer waits for that round trip before it can ask for
// the page's own data. Made by the same service as GraphQL's `viewer`, for the
// principal /graphql makes of this session (sessionPrincipal), so the two agree.
import type { Principal } from '../auth/principal.js';
import type { Services } from '../graphql/modules.js';

/** What the app reads (client/section.ts's Viewer): scopes as the API writes them (`crm:read`). */
export interface PageViewer {
  user: { id: string; email: string; name: string | null; role: string } | null;
  organization: { id: string; name: string };
  scopes: string[];
  credentialType: string;
}

export async function pageViewer(services: Pick<Services, 'viewer'>, principal: Principal): Promise<PageViewer> {
  const { user, organization, scopes, credentialType } = await services.viewer.of(principal);
  return {
    user: user && { id: user.id, email: user.email, name: user.name, role: user.role },
    organization: { id: organization.id, name: organization.name },
    scopes,
    credentialType,
  };
}
