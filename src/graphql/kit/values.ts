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
  .transform((value) => value.toLowerCase())
  // The pipe hides the check from z.toJSONSchema (it shows the input side): state it for OpenAPI.
  .meta({ format: 'email' });

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

/** A phone number as people write them: digits, spaces and + ( ) - . / x. */
export const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ().\-/x]{3,40}$/i, 'must be a phone number of digits, spaces and + ( ) - . /');

/**
 * Read when a currency is first checked, not at start: Intl's first use pages in
 * ICU's data (some 6 MB of resident memory a process that never checks one does not need).
 */
let currencies: Set<string> | undefined;
const isCurrency = (code: string) => (currencies ??= new Set(Intl.supportedValuesOf('currency'))).has(code);

/** ISO 4217, accepted in any case and stored upper-case. */
export const currency = z
  .string('must be a string')
  .toUpperCase()
  .refine(isCurrency, 'must be an ISO 4217 currency code, e.g. USD')
  // The document cannot list the codes in every case: three letters, which the server then looks up.
  .meta({ pattern: '^[A-Za-z]{3}$' });

/** An https URL (a link people and tools fetch: never in clear over http), at most 2000 characters. */
export const httpsUrl = z
  .string('must be a string')
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .pipe(z.url({ protocol: /^https$/, message: 'must be an https URL' }))
  .meta({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]://' });

// z.int() is a safe integer: at most 2^53 - 1, which a bigint column and a JSON number both hold exactly.
/** Integer minor units of a currency (cents for USD), 0 or more. */
export const minorUnits = z
  .int(`must be a whole number of minor units from 0 to ${Number.MAX_SAFE_INTEGER}`)
  .min(0, 'must not be negative');

/** A real calendar date YYYY-MM-DD; year 0 does not exist in PostgreSQL's calendar. */
export const calendarDate = z.iso
  .date('must be a calendar date YYYY-MM-DD')
  .refine((date) => !date.startsWith('0000-'), 'must be a calendar date from 0001-01-01');

/** SQL: the first instant of the UTC calendar day in parameter `p` (a day filter over a timestamp column). */
export const utcDayStart = (p: string) => `(${p}::date::timestamp at time zone 'UTC')`;

/** true or false, from a query string ("true", "false") or a GraphQL Boolean (a list's flag filter). */
export const booleanFlag = z
  .preprocess(
    (value) => (value === 'true' ? true : value === 'false' ? false : value),
    z.boolean('must be true or false'),
  )
  // The preprocess step hides the type from z.toJSONSchema: state it for OpenAPI.
  .meta({ type: 'boolean' });
