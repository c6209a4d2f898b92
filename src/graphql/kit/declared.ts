// Every resource declared with defineResource, by its REST path's last segment
// ('contacts', 'payroll-runs'): what works over any declared resource (exports)
// reads them here, so a new declaration is covered without code of its own.
import type { Resource } from './resource.js';

const declared = new Map<string, Resource>();

/** Called by defineResource when an area's module loads. */
export function declareResource(resource: Resource): void {
  const name = resource.path.split('/').pop()!;
  const existing = declared.get(name);
  if (existing && existing !== resource) throw new Error(`two resources are declared at a path ending in '${name}'`);
  declared.set(name, resource);
}

/** The declared resources, by the last segment of their REST path. */
export function declaredResources(): ReadonlyMap<string, Resource> {
  return declared;
}
