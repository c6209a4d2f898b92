// The `DateTime` scalar of every timestamp: graphql-scalars' DateTime (its name,
// description and RFC 3339 checks), serialised and parsed as the millisecond
// ISO 8601 UTC string REST and events show (`2026-01-02T03:04:05.678Z`), never
// as a Date: REST runs the same operations in-process, and services validate
// strings. And the `Date` scalar of every calendar date, YYYY-MM-DD both ways.
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
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
  specifiedByURL: 'https://scalars.graphql.org/andimarek/date-time.html',
  serialize: (value) => (typeof value === 'string' && CANONICAL.test(value) ? value : iso(library.serialize!(value))),
  parseValue: (value) => iso(library.parseValue!(value)),
  parseLiteral: (ast, variables) => iso(library.parseLiteral!(ast, variables)),
});

// A calendar day as REST writes it: YYYY-MM-DD, a real date from 0001-01-01 (PostgreSQL has no year 0).
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function calendarDay(value: unknown): string {
  const [, year, month, day] = (typeof value === 'string' && DAY.exec(value)) || [];
  const date = year ? new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))) : undefined;
  // Date.UTC maps years 0-99 to 1900-1999: set the year again before comparing.
  date?.setUTCFullYear(Number(year));
  if (!date || Number(year) < 1 || date.toISOString().slice(0, 10) !== value) {
    // A GraphQLError, as graphql-scalars throws: graphql/errors.ts makes it a VALIDATION_ERROR naming the field.
    throw new GraphQLError(`must be a calendar date YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
  return value as string;
}

/** The `Date` scalar of every calendar date (`issueDate`, `from`, `startDate`): the string REST shows. */
export const CalendarDate = new GraphQLScalarType<string, string>({
  name: 'Date',
  description: 'A calendar date, YYYY-MM-DD (ISO 8601 / RFC 3339 full-date), e.g. 2026-01-31; no time, no zone.',
  specifiedByURL: 'https://scalars.graphql.org/andimarek/local-date.html',
  // What the kit's SQL selects is already YYYY-MM-DD (to_char): shown as it is, checked only on input.
  serialize: (value) =>
    typeof value === 'string' && DAY.test(value)
      ? value
      : value instanceof Date
        ? value.toISOString().slice(0, 10)
        : calendarDay(value),
  parseValue: calendarDay,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('must be a calendar date YYYY-MM-DD, as a string');
    return calendarDay(ast.value);
  },
});
