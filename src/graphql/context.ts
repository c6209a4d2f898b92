// The per-request GraphQL context: who is calling, the services they reach, and
// the request's DataLoaders (batching relation fields, one query per field).
import type DataLoader from 'dataloader';
import type { Principal } from '../auth/principal.js';
import type { FixedFields } from './kit/fixed-fields.js';
import type { Services } from './modules.js';

export interface Context {
  /** Undefined when the request carried no valid credential. */
  principal?: Principal;
  /** Why authentication failed, to report instead of a bare UNAUTHORIZED. */
  authError?: Error;
  services: Services;
  /**
   * Set by the REST facade: the request's body or query, already validated with
   * the operation's own schema, so the service does not validate it again.
   */
  restInput?: {
    value: unknown;
    /** The read-only fields a PUT body gave: the service refuses any value but the record's (kit/fixed-fields.ts). */
    fixed?: FixedFields;
  };
  /** Set for a /graphql POST with `Prefer: dry-run`: nothing it writes is kept (src/db/dry-run.ts). */
  dryRun?: { organizationId: string };
  /** Per request, so a batch never mixes callers or organizations; see kit/loaders.ts. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
}

export function createContext(services: Services, principal?: Principal, authError?: Error): Context {
  return { principal, authError, services, loaders: new Map() };
}
