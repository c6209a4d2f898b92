// GraphQL enums of the kit, one per enumerated field, named after the resource
// and the field (`DealStage`, `UserRole`): the public field, the input field and
// the list filter of the same name share it, whichever declares it first. The
// values keep the wire spelling (`lead`, not `LEAD`), so GraphQL, REST and events
// show the same strings.
import { registerEnumType } from 'type-graphql';
import { enumValueNames } from './enum-names.js';

/** The enum object type-graphql takes: GraphQL value name -> internal value. */
export type EnumObject = Record<string, string>;

const enums = new Map<string, { values: readonly string[]; object: EnumObject }>();
const names = new WeakMap<EnumObject, string>();

/** The GraphQL name of an enum made here (type-graphql's enum objects carry none). */
export const enumNameOf = (object: object): string | undefined => names.get(object as EnumObject);

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Whether every value can be a GraphQL enum value name (`crm:read` and `contact.created` cannot). */
function enumerable(values: readonly string[]): boolean {
  return values.every((value) => GRAPHQL_NAME.test(value) && !['true', 'false', 'null'].includes(value));
}

/** `Deal` + `stage` -> `DealStage`. */
const enumName = (resource: string, field: string) => `${resource}${field[0]!.toUpperCase()}${field.slice(1)}`;

const sameValues = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value) => b.includes(value));

/**
 * The GraphQL enum `name` of these values, registered on first use. Another
 * declaration of the same name must list the same values: an input that takes
 * fewer than its field shows says so with its own `graphql` type.
 */
export function graphqlEnum(
  name: string,
  values: readonly string[],
  options: {
    description?: string;
    valueNames?: (value: string) => string;
    valueDescriptions?: (value: string) => string;
  } = {},
): EnumObject {
  const known = enums.get(name);
  if (known) {
    if (!sameValues(known.values, values)) {
      throw new Error(
        `enum ${name} is declared with ${known.values.join(', ')} and again with ${values.join(', ')}: ` +
          'give the input or filter that differs its own { graphql } type',
      );
    }
    return known.object;
  }
  const valueName = options.valueNames ?? ((value: string) => value);
  const object: EnumObject = Object.fromEntries(values.map((value) => [valueName(value), value]));
  registerEnumType(object, {
    name,
    description: options.description,
    ...(options.valueDescriptions && {
      valuesConfig: Object.fromEntries(
        values.map((value) => [valueName(value), { description: options.valueDescriptions!(value) }]),
      ),
    }),
  });
  enums.set(name, { values, object });
  names.set(object, name);
  return object;
}

/**
 * The GraphQL type of `resource`'s field `field` holding one of `values`: its enum
 * (`DealStage`), or undefined when a value cannot be a GraphQL name.
 */
export function fieldEnum(resource: string, field: string, values: readonly string[]): (() => EnumObject) | undefined {
  if (!enumerable(values)) return undefined;
  const enumType = graphqlEnum(enumName(resource, field), values);
  return () => enumType;
}

/**
 * The enums whose value names are not their values (`Scope`, `EventType`), by
 * name: each wire value's GraphQL name. REST, which runs GraphQL operations
 * with wire values, converts its variables and answers with it (src/rest/execute.ts).
 */
export const renamedEnums = new Map<string, ReadonlyMap<string, string>>();

/**
 * A GraphQL enum of wire values some of which cannot be names (`crm:read`):
 * each value is named by enumValueName (`crm_read`) and keeps its wire value
 * inside (resolvers and services see `crm:read`).
 */
export function wireEnum(name: string, values: readonly string[], description: string): EnumObject {
  const names = enumValueNames(values);
  const object = graphqlEnum(name, values, {
    description: `${description} GraphQL names each value with \`_\` for what a name cannot hold (\`crm:read\` is \`crm_read\`).`,
    valueNames: (value) => names.get(value)!,
  });
  if ([...names].some(([value, valueName]) => value !== valueName)) renamedEnums.set(name, names);
  return object;
}
