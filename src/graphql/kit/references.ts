// A declaration's references, written once as the resource they name
// (`references: { contactId: contacts }`). From each the kit derives the check
// of a written id (the target's table, id prefix and noun), the relation field
// (`Deal.contact`) and its inverse on the target (`Contact.deals(page, limit)`);
// the object form overrides those GraphQL names and descriptions.
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
}

/** 'leaveRequests' -> 'leave requests': a GraphQL name as the words of a message. */
export const words = (name: string) => name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

function completeReference(source: Resource, field: string, declared: ReferenceDeclaration): Reference {
  const options: ReferenceOptions =
    typeof declared === 'object' && 'target' in declared ? declared : { target: declared };
  const target = options.target === 'self' ? source : options.target.resource;
  const name = options.name ?? (field.endsWith('Id') ? field.slice(0, -2) : undefined);
  if (!name) throw new Error(`${source.type.name}.${field}: a reference not named <thing>Id needs its relation's name`);
  const inverse = options.inverse ?? {};
  return {
    target,
    onDelete: options.onDelete ?? 'restrict',
    name,
    description: options.description,
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
