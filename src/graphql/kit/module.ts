// A resource module: what one resource folder contributes to the service. Its
// area's index lists the modules; src/graphql/modules.ts gathers the areas, and
// the schema, the services and the REST routes are all built from that list.
import type pg from 'pg';
import type { Config } from '../../config.js';
import type { PrismaClient } from '../../db/prisma.js';
import type { RestRoute } from './routes.js';

/** What a service may be built from: database access stays inside services. */
export interface ServiceDependencies {
  prisma: PrismaClient;
  /** The pg pool beneath Prisma, for the list fast path. */
  pool: pg.Pool;
  /** The service's configuration, for the few services that read a setting (webhooks); tools may omit it. */
  config?: Config;
  /**
   * Called after a commit that revoked credentials depending on `id`, so this
   * process's credential cache drops them before the NOTIFY comes back.
   */
  credentialsChanged?: (id: string) => void;
}

export interface ResourceModule<S extends object = object> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: Function[];
  routes: RestRoute[];
  /** Named services, each built once per process. */
  services: { [K in keyof S]: (deps: ServiceDependencies) => S[K] };
}

export function defineModule<S extends object>(module: ResourceModule<S>): ResourceModule<S> {
  return module;
}

export type ServicesOf<M> = M extends ResourceModule<infer S> ? S : never;
