// The per-request GraphQL context: who is calling and the services they reach.
import type { Principal } from '../auth/principal.js';
import type { Services } from '../services.js';

export interface Context {
  /** Undefined when the request carried no valid credential. */
  principal?: Principal;
  /** Why authentication failed, to report instead of a bare UNAUTHORIZED. */
  authError?: Error;
  services: Services;
}
