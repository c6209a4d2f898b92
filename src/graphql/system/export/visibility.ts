// Who may export what, and who sees an export once made (docs/decisions.md, Exports).
// - Exporting a resource needs its read scope (finance:read for invoices and their
//   lines, hr:payroll for payroll runs: the area's, from its declaration); events
//   need admin.
// - A file holds its rows as a holder of the export's `scopes` reads them, so an
//   export is listed, shown and downloaded only by a caller holding every one of
//   them (admin holds all): an invoices file made with finance:read is not a
//   crm:read key's to download (404, as another organization's).
// - The default scopes: an admin's own (['admin']); anyone else's, those of the
//   caller's scopes the file depends on (the resource's read scope and the scopes
//   of its fields: hr:payroll for employees' salaries), so an accountant's
//   invoices file is any finance:read holder's to download, whatever else the
//   accountant holds.
import type { Principal } from '../../../auth/principal.js';
import { hasScope, SCOPES, type Scope } from '../../../auth/scopes.js';
import type { Narrowing } from '../../kit/resource.js';
import type { ExportSource } from './source.js';

/** The condition on "Export" rows a caller may see (the declaration's `visibleTo`); none for admin. */
export function exportsVisibleTo(principal: Principal): Narrowing {
  if (principal.scopes.has('admin')) return undefined;
  return { where: (param) => `"Export".scopes <@ ${param}::text[]`, value: [...principal.scopes] };
}

/** The scopes a file is written with when the request of a caller holding `scopes` names none. */
export function defaultFileScopes(scopes: ReadonlySet<string>, source: ExportSource): Scope[] {
  const held = SCOPES.filter((scope) => scopes.has(scope));
  if (scopes.has('admin')) return held;
  const dependsOn = new Set<Scope>([
    ...(source.readScope ? [source.readScope] : []),
    ...source.hidden.map(({ scope }) => scope),
  ]);
  return held.filter((scope) => dependsOn.has(scope) && hasScope(scopes, scope));
}
