// Relation fields (Contact.deals, Deal.contact) load through a DataLoader per
// request and per relation: one query for all the rows of a list, not one per row.
import DataLoader from 'dataloader';
import type { Context } from '../context.js';

export function loaderFor<K, V>(
  ctx: Context,
  name: string,
  batch: (keys: readonly K[]) => Promise<readonly V[]>,
): DataLoader<K, V> {
  let loader = ctx.loaders.get(name) as DataLoader<K, V> | undefined;
  if (!loader) {
    loader = new DataLoader<K, V>(batch, { cache: true });
    ctx.loaders.set(name, loader as DataLoader<unknown, unknown>);
  }
  return loader;
}

/** Orders rows found for `keys` back into key order: one entry per key (undefined when missing). */
export function byKey<K, R>(keys: readonly K[], rows: R[], keyOf: (row: R) => K): (R | undefined)[] {
  const found = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => found.get(key));
}
