// How GraphQL spells a wire value that cannot be an enum value name: every
// character a name cannot hold becomes `_` (`crm:read` -> `crm_read`,
// `deal.stage_changed` -> `deal_stage_changed`). REST, events and the database
// keep the wire value; only GraphQL documents and answers show the name. Pure
// (no GraphQL library), so the dashboard's code uses it too.

export const enumValueName = (value: string): string => value.replace(/[^_0-9A-Za-z]/g, '_');

/** Wire value -> name for `values`; throws when two values would share a name. */
export function enumValueNames(values: readonly string[]): ReadonlyMap<string, string> {
  const names = new Map(values.map((value) => [value, enumValueName(value)]));
  if (new Set(names.values()).size !== names.size) {
    throw new Error(`two of ${values.join(', ')} share an enum value name`);
  }
  return names;
}
