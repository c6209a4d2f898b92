// The `DateTime` scalar of every timestamp: graphql-scalars' DateTime (its name,
// description and RFC 3339 checks), serialised and parsed as the millisecond
// ISO 8601 UTC string REST and events show (`2026-01-02T03:04:05.678Z`), never
// as a Date: REST runs the same operations in-process, and services validate
// strings.
import { GraphQLScalarType } from 'graphql';
import { GraphQLDateTime } from 'graphql-scalars';

// What Date#toISOString and the kit's SQL (fields.ts) produce: shown as it is.
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const library = GraphQLDateTime.toConfig();
const iso = (value: unknown) => (value as Date).toISOString();

export const DateTime = new GraphQLScalarType<string, string>({
  ...library,
  description:
    'A date-time in UTC as ISO 8601 with milliseconds, e.g. 2026-01-02T03:04:05.678Z (RFC 3339; ' +
    'an input may carry an offset, which is converted to UTC).',
  serialize: (value) => (typeof value === 'string' && CANONICAL.test(value) ? value : iso(library.serialize!(value))),
  parseValue: (value) => iso(library.parseValue!(value)),
  parseLiteral: (ast, variables) => iso(library.parseLiteral!(ast, variables)),
});
