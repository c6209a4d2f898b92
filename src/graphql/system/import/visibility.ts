// Who sees an import: a holder of the read or the write scope of the resource
// imported into (admin: every one); another is 404, as another organization's.
import type { Principal } from '../../../auth/principal.js';
import type { Narrowing } from '../../kit/resource.js';

/** The condition on "Import" rows a caller may see (the declaration's `visibleTo`): one of its scopes among the import's. */
export function importsVisibleTo(principal: Principal): Narrowing {
  if (principal.scopes.has('admin')) return undefined;
  return { where: (param) => `"Import".scopes && ${param}::text[]`, value: [...principal.scopes] };
}
