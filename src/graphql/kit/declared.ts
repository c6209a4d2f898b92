// Every resource declared with defineResource, by its REST path's last segment
// ('contacts', 'payroll-runs'): what works over any declared resource (exports,
// the event catalogue) reads them here, so a new declaration is covered without
// code of its own. Each owns its id prefix: a prefix another declaration or
// src/ids.ts already holds fails the load.
import { ID_PREFIX } from '../../ids.js';
import type { Resource } from './resource.js';

const declared = new Map<string, Resource>();
const byPrefix = new Map<string, Resource>();

/** Lower-case letters only: a prefix goes into the id's pattern (src/ids.ts) as it is. */
const PREFIX = /^[a-z]{2,8}$/;

function claimPrefix(resource: Resource): void {
  const { idPrefix: prefix } = resource;
  const name = resource.type.name;
  if (!PREFIX.test(prefix)) throw new Error(`${name}'s idPrefix '${prefix}' must be 2 to 8 lower-case letters`);
  const kind = Object.entries(ID_PREFIX).find(([, taken]) => taken === prefix)?.[0];
  if (kind) throw new Error(`${name}'s idPrefix '${prefix}' is already the prefix of ${kind} ids (src/ids.ts)`);
  const owner = byPrefix.get(prefix);
  if (owner && owner !== resource) {
    throw new Error(`${name}'s idPrefix '${prefix}' is already ${owner.type.name}'s: each resource needs its own`);
  }
  byPrefix.set(prefix, resource);
}

/** Called by defineResource when an area's module loads. */
export function declareResource(resource: Resource): void {
  const name = resource.path.split('/').pop()!;
  const existing = declared.get(name);
  if (existing && existing !== resource) throw new Error(`two resources are declared at a path ending in '${name}'`);
  claimPrefix(resource);
  declared.set(name, resource);
}

/** The declared resources, by the last segment of their REST path. */
export function declaredResources(): ReadonlyMap<string, Resource> {
  return declared;
}
