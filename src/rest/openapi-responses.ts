// The headers and error answers every operation of GET /v1/openapi.json may carry
// (src/rest/openapi.ts builds the document; this is what it says of each response).
import type { ServedRoute as RestRoute } from './served-route.js';

export const COMPONENT_URI = (id: string) => `#/components/schemas/${id}`;

/** Any POST may carry one (src/http/idempotency.ts). */
export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a repeat with the same key and body within 24 hours gets the first answer ' +
    '(with `Idempotent-Replayed: true`); the same key with another body is 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** Any write may carry it (src/http/prefer.ts, src/db/dry-run.ts). */
export const PREFER = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description:
    '`dry-run` (RFC 7240): the write answers exactly what it would (its status, body, or its 400, 404 or 409) ' +
    'with `Preference-Applied: dry-run` and `Would-Raise`, and changes nothing: no record, no event, no webhook, ' +
    'no number taken. An Idempotency-Key is neither replayed nor stored by a dry run.',
  schema: { type: 'string' },
  example: 'dry-run',
};

const HEADER_URI = (id: string) => `#/components/headers/${id}`;

/**
 * The response headers the server sends, as named components: the rate limit's
 * state on every answer to a counted request (src/http/authenticate.ts), when to
 * retry (src/http/errors.ts) and a replayed answer's mark (src/http/idempotency.ts).
 */
export const HEADERS = {
  'RateLimit-Limit': {
    description: "Requests the budget allows per window (the credential's, or the client address's without one).",
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the current window ends and the budget is full again.',
    schema: { type: 'integer', minimum: 1 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying (as error.retryAfter says).',
    schema: { type: 'integer', minimum: 0 },
  },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Preference-Applied': {
    description: '`dry-run` when the request asked for a dry run (`Prefer: dry-run`): nothing it did was kept.',
    schema: { type: 'string', enum: ['dry-run'] },
  },
  'Would-Raise': {
    description:
      "A dry run's answer: the types of the events the write would raise, comma-separated, in order; absent when none.",
    schema: { type: 'string' },
    example: 'payment.created, invoice.paid',
  },
  Link: {
    description:
      'On a list page with a next one: `<the same request with after=pagination.next>; rel="next"` (RFC 8288).',
    schema: { type: 'string' },
  },
} as const;

type HeaderName = keyof typeof HEADERS;

/** Named after the header itself (a component name may hold `-`). */
const headerRefs = (names: HeaderName[]) => Object.fromEntries(names.map((name) => [name, { $ref: HEADER_URI(name) }]));

/** Every /v1 answer to a counted request carries the budget's state; these may also carry the others. */
const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
/** Statuses whose answer says when to retry. */
const RETRY_STATUSES = new Set(['429', '503']);
/** Statuses a replayed POST may answer with: its first answer's (a success, or a client error it stored). */
const NOT_REPLAYED = new Set(['401', '413', '415', '429', '500', '503']);
/** Statuses answered before a dry run begins (the credential, its scope, the body's size and type, the budget). */
const BEFORE_DRY_RUN = new Set(['401', '403', '413', '415', '429']);

/** Each response of an operation with the headers it may carry (`paged`: a list, whose 200 may link the next page). */
export function withHeaders(
  responses: Record<string, Record<string, unknown>>,
  method: string,
  paged: boolean,
  dryRunnable = method !== 'get',
) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const names = [...RATE_LIMIT_HEADERS];
      if (paged && status === '200') names.push('Link');
      if (RETRY_STATUSES.has(status)) names.push('Retry-After');
      if (method === 'post' && !NOT_REPLAYED.has(status)) names.push('Idempotent-Replayed');
      if (dryRunnable && !BEFORE_DRY_RUN.has(status)) names.push('Preference-Applied');
      if (dryRunnable && status.startsWith('2')) names.push('Would-Raise');
      const headers = { ...(response.headers as object | undefined), ...headerRefs(names) };
      return [status, { ...response, headers }];
    }),
  );
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: COMPONENT_URI('Error') } } },
});

export function errorResponses(row: RestRoute) {
  const responses: Record<string, Record<string, unknown>> = {
    '401': errorResponse('Missing, invalid, expired or revoked credential'),
    '429': errorResponse('Rate limit exceeded; see Retry-After'),
    '500': errorResponse('Internal error'),
    '503': errorResponse('The database is unreachable, busy or too slow right now; see Retry-After'),
  };
  if (row.query || row.body) {
    const unknown = row.query ? '; a query parameter the list does not take is refused too' : '';
    responses['400'] = errorResponse(`Invalid request (error.field names the field)${unknown}`);
  }
  const forbidden = [row.scope && `Credential lacks the ${row.scope} scope`, row.forbidden].filter(Boolean);
  if (forbidden.length) responses['403'] = errorResponse(forbidden.join('. '));
  if (row.path.includes(':')) responses['404'] = errorResponse('No such record in the organization');
  const conflicts = [
    row.conflict,
    row.method === 'post' &&
      !row.upload &&
      'The Idempotency-Key was used with another request, or that request is still running',
  ].filter(Boolean);
  if (conflicts.length) responses['409'] = errorResponse(conflicts.join('. '));
  if (row.gone) responses['410'] = errorResponse(row.gone);
  if (row.body) {
    responses['413'] = errorResponse('Body too large');
    responses['415'] = errorResponse('Body is not JSON');
  }
  if (row.upload) {
    responses['413'] = errorResponse('The file is too large');
    responses['415'] = errorResponse(`Body is not ${row.upload.contentTypes.join(' or ')}`);
  }
  return responses;
}
