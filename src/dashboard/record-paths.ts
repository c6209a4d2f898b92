// Where the dashboard shows a record, by its id's prefix (ids say what they are,
// src/ids.ts): a declared resource's at its REST path without /v1
// (`/crm/contacts/<id>`), and the system's records that have a page of their own.
// Written into the page, so an event or a delivery links to its record with no
// request and no list of resources in the browser code.
import { declaredResources } from '../graphql/kit/declared.js';
import { ID_PREFIX } from '../ids.js';

const SYSTEM_PAGES: Record<string, string> = {
  [ID_PREFIX.webhook]: '/developers/webhooks',
  [ID_PREFIX.oauthApp]: '/developers/oauth-apps',
  [ID_PREFIX.user]: '/settings/users',
};

/** `prefix=path` pairs joined by spaces, as the page's record-paths meta tag holds them. */
export function recordPathsMeta(): string {
  const paths = { ...SYSTEM_PAGES };
  for (const resource of declaredResources().values()) paths[resource.idPrefix] = resource.fullPath;
  return Object.entries(paths)
    .map(([prefix, path]) => `${prefix}=${path}`)
    .join(' ');
}
