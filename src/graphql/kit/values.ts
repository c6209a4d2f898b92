// Validators of values that many resources share.
import { z } from 'zod';
import { SCOPES } from '../../auth/scopes.js';
import { hasNoNul, NUL_MESSAGE } from '../../validation.js';

/** Trimmed, non-empty text of at most `max` characters, without NUL. */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine(hasNoNul, NUL_MESSAGE);

/** A valid address, stored lower-cased. */
export const email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .transform((value) => value.toLowerCase());

/** A sign-in password: checked for length only; stored as a scrypt hash. */
export const password = z
  .string('must be a string')
  .min(8, 'must be at least 8 characters')
  .max(200, 'must be at most 200 characters');

/** Scope names, duplicates dropped; `min` names the least count (API keys need one). */
export const scopeList = ({ min = 0 } = {}) =>
  z
    .array(z.enum(SCOPES, { message: `must be one of ${SCOPES.join(', ')}` }), 'must be an array of scope names')
    .min(min, `must name at least ${min} scope${min === 1 ? '' : 's'}`)
    .transform((values) => [...new Set(values)]);
