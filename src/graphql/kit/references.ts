// A declaration's references, written once as the resource they name
// (`references: { contactId: contacts }`). From each the kit derives the check
// of a written id (the target's table, id prefix and noun), the relation field
// (`Deal.contact`) and its inverse on the target (`Contact.deals(page, limit)`);
// the object form overrides those GraphQL names and descriptions.
import { invalidField } from '../../errors.js';
import type { RuleContext } from './lifecycle.js';
import type { Resource } from './resource.js';

/** A defined resource (`contacts`), or 'self' for a record of the resource being declared (a manager). */
export type ReferenceTarget = { readonly resource: Resource } | 'self';

/** A foreign key's ON DELETE: refuse the delete, delete this record too, or clear the field. */
export type OnDelete = 'restrict' | 'cascade' | 'set null';

export interface ReferenceOptions {
  target: ReferenceTarget;
  /**
   * What deleting the record it names does to this one, for the foreign key
   * `npm run migration:create` writes: default 'restrict' (the delete is refused,
   * 409, while records name it: nothing changes or goes without its own event).
   */
  onDelete?: OnDelete;
  /** The GraphQL field reading the record; default the field without `Id` (`contactId`: `contact`). */
  name?: string;
  description?: string;
  /**
   * The GraphQL field on the target listing the records that name it; default
   * the source's list name (`Contact.deals`) and "The contact's deals, oldest first.";
   * false: none.
   */
  inverse?: false | { name?: string; description?: string };
  /**
   * For a 'self' reference (a manager, a parent department): a change that would
   * make a cycle (the record itself, or one that names it however indirectly) is
   * a 400 naming the field with these words.
   */
  acyclic?: string;
}

export type ReferenceDeclaration = ReferenceTarget | ReferenceOptions;

/** A reference with its defaults filled in: what the service checks and the relation fields read. */
export interface Reference {
  target: Resource;
  onDelete: OnDelete;
  /** The relation field on the source (`Deal.contact`). */
  name: string;
  description?: string;
  /** The page of referring records on the target (`Contact.deals`); none: the target does not list them. */
  inverse?: { name: string; description: string };
  /** For a 'self' reference: the words of the 400 when a change would make a cycle. */
  acyclic?: string;
}

/** 'leaveRequests' -> 'leave requests': a GraphQL name as the words of a message. */
export const words = (name: string) => name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

function completeReference(source: Resource, field: string, declared: ReferenceDeclaration): Reference {
  const options: ReferenceOptions =
    typeof declared === 'object' && 'target' in declared ? declared : { target: declared };
  const target = options.target === 'self' ? source : options.target.resource;
  if (options.acyclic && options.target !== 'self') {
    throw new Error(`${source.type.name}.${field}: only a 'self' reference can be acyclic`);
  }
  const name = options.name ?? (field.endsWith('Id') ? field.slice(0, -2) : undefined);
  if (!name) throw new Error(`${source.type.name}.${field}: a reference not named <thing>Id needs its relation's name`);
  const inverse = options.inverse ?? {};
  return {
    target,
    onDelete: options.onDelete ?? 'restrict',
    name,
    description: options.description,
    acyclic: options.acyclic,
    inverse:
      inverse === false
        ? undefined
        : {
            name: inverse.name ?? source.names.many,
            description: inverse.description ?? `The ${target.noun[0]}'s ${words(source.names.many)}, oldest first.`,
          },
  };
}

/** Each declared reference of `source`, by the field that holds it, completed. */
export function completeReferences(
  source: Resource,
  declared: Partial<Record<string, ReferenceDeclaration>> | undefined,
): Record<string, Reference> {
  return Object.fromEntries(
    Object.entries(declared ?? {}).map(([field, reference]) => [field, completeReference(source, field, reference!)]),
  );
}

/**
 * 400 naming the field when a changed 'self' reference declared acyclic would
 * name the record itself or one that names it however indirectly (the chain
 * walked up from the new value in one recursive query).
 */
export async function refuseCycles(
  rules: Pick<RuleContext, 'organizationId' | 'query'>,
  source: Resource,
  id: string,
  changes: Record<string, unknown>,
): Promise<void> {
  for (const [field, reference] of Object.entries(source.references)) {
    const next = changes[field];
    if (!reference.acyclic || typeof next !== 'string') continue;
    const cycle = await rules.query(
      `with recursive chain(id, up) as (
         select id, "${field}" from "${source.table}" where id = $1 and "organizationId" = $3
         union select t.id, t."${field}" from "${source.table}" t join chain on t.id = chain.up)
       select 1 from chain where id = $2 limit 1`,
      [next, id, rules.organizationId],
    );
    if (cycle.length) throw invalidField(field, reference.acyclic);
  }
}
