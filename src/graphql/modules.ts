// Every resource module, by area. The schema (schema.ts), the services (below)
// and the REST routes (src/rest) are built from this list: adding a resource
// edits its area's index, adding an area adds one entry to areas.ts.
import { AREA_MODULES } from './areas.js';
import type { ResourceModule, ServiceDependencies, ServicesOf } from './kit/module.js';
import { system } from './system/index.js';

export const MODULES = [...system, ...AREA_MODULES] as const;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Every service, by name (`contacts`, `events`, ...). */
export type Services = UnionToIntersection<ServicesOf<(typeof MODULES)[number]>>;

export function createServices(deps: ServiceDependencies): Services {
  const services: Record<string, unknown> = {};
  for (const module of MODULES as readonly ResourceModule[]) {
    for (const [name, create] of Object.entries(module.services)) {
      if (name in services) throw new Error(`two modules define the service '${name}'`);
      services[name] = (create as (deps: ServiceDependencies) => unknown)(deps);
    }
  }
  return services as Services;
}

export const RESOLVERS = MODULES.flatMap((module) => module.resolvers);
export const ROUTES = MODULES.flatMap((module) => module.routes);
