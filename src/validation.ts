// Parses input with a zod schema and turns the first problem into a
// VALIDATION_ERROR naming the field, in the words an API client can act on:
//   missing            'email' is required
//   wrong type         'email' must be a string, not a number   ('tags' must be an array, not a string)
//   null not allowed   'email' must be a string, not null
//   a rule             'email': must be a valid email address    (the schema's own message)
//   repeated in a query string   'page' must be given only once
//   not a parameter of the list  Unknown query parameter 'overdue' (this list takes page, limit, ...)
// zod 4 leaves the offending value off its issues unless asked (`reportInput`):
// without it a wrong type and a missing field look alike.
import type { z } from 'zod';
import { DomainError } from './errors.js';

type Issue = z.core.$ZodIssue;

/** PostgreSQL text cannot hold NUL: refuse it as input instead of failing to store it. */
export const hasNoNul = (text: string) => !text.includes('\u0000');
export const NUL_MESSAGE = 'must not contain NUL characters';

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  date: 'a date',
};

/** How a JSON value is named in a message: `a number`, `an array`, `null`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return 'a boolean';
  return `a ${typeof value}`;
}

/** zod's own message (not one the schema gave) for an invalid_type issue. */
const isDefaultTypeMessage = (message: string) => message.startsWith('Invalid input');

interface Source {
  /** A query string: a repeated parameter arrives as an array. */
  query?: boolean;
  /** The parameters the query's schema takes, named in the message for one it does not. */
  parameters?(): string[];
}

function describe(issue: Issue, field: string, source: Source): { field: string; message: string } {
  const subject = field ? `'${field}'` : 'The input';
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const name = field ? `${field}.${key}` : key;
    if (source.query && !field) {
      const parameters = source.parameters?.() ?? [];
      const known = parameters.length ? ` (this list takes ${parameters.join(', ')})` : '';
      return { field: name, message: `Unknown query parameter '${name}'${known}` };
    }
    return { field: name, message: `Unknown field '${name}'` };
  }
  const hasInput = 'input' in issue && issue.input !== undefined;
  if (source.query && issue.path.length === 1 && hasInput && Array.isArray(issue.input)) {
    return { field, message: `${subject} must be given only once` };
  }
  if (issue.code === 'invalid_type') {
    if (!hasInput) return { field, message: `${subject} is required` };
    if (isDefaultTypeMessage(issue.message)) {
      const expected = EXPECTED[issue.expected] ?? `of type ${issue.expected}`;
      const received = kindOf(issue.input);
      // 1.5 for an integer is a number, but not the right one: no "not a number".
      const sameKind = expected === 'an integer' && received === 'a number';
      return { field, message: `${subject} must be ${expected}${sameKind ? '' : `, not ${received}`}` };
    }
  }
  return { field, message: field ? `'${field}': ${issue.message}` : issue.message };
}

function parse<S extends z.ZodType>(schema: S, input: unknown, source: Source): z.output<S> {
  // Parsing with options leaves zod's compiled fast path (4x slower): valid input, the
  // usual case, goes without; invalid input is parsed again to report the value.
  const valid = schema.safeParse(input);
  if (valid.success) return valid.data;
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const { field, message } = describe(issue, issue.path.map(String).join('.'), source);
  throw new DomainError('VALIDATION_ERROR', message, field || undefined);
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  return parse(schema, input, {});
}

/** parseInput for a parsed query string, where `?page=1&page=2` gives `page: ['1', '2']`. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const parameters = () => Object.keys((schema as unknown as { shape?: object }).shape ?? {});
  return parse(schema, query, { query: true, parameters });
}
