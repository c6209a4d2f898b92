// Parses input with a zod schema and turns the first problem into a
// VALIDATION_ERROR naming the field, in the words an API client can act on.
import type { z } from 'zod';
import { DomainError } from './errors.js';

type Issue = z.core.$ZodIssue;

/** PostgreSQL text cannot hold NUL: refuse it as input instead of failing to store it. */
export const hasNoNul = (text: string) => !text.includes('\u0000');
export const NUL_MESSAGE = 'must not contain NUL characters';

function describe(issue: Issue, field: string): { field: string; message: string } {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const name = field ? `${field}.${key}` : key;
    return { field: name, message: `Unknown field '${name}'` };
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return { field, message: `'${field}' is required` };
  }
  return { field, message: field ? `'${field}': ${issue.message}` : issue.message };
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const { field, message } = describe(issue, issue.path.map(String).join('.'));
  throw new DomainError('VALIDATION_ERROR', message, field || undefined);
}
