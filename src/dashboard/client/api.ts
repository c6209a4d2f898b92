// The dashboard's only way to the server: one GraphQL operation per call to
// /graphql, with the session cookie (sent by the browser) and the CSRF token
// the page was served with. Errors come back as ApiError, keeping the field the
// server named, so a form can show the message beside that field.

import { toGraphQLNames, toWireValues } from './wire-values.js';

const csrfToken = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

export class ApiError extends Error {
  constructor(
    message: string,
    /** The server's code: VALIDATION_ERROR, NOT_FOUND, CONFLICT, FORBIDDEN, UNAUTHORIZED… */
    readonly code: string,
    /** The input field the error is about, when the server names one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Listeners told when the session has ended (expired, signed out elsewhere, rights changed). */
const sessionEndedListeners = new Set<() => void>();

export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

interface GraphQLError {
  message: string;
  extensions?: { code?: string; field?: string };
}

/**
 * Whether an answer says this page's sign-in is over: a 401, or the page's CSRF
 * token refused (it was made for the cookie of an earlier sign-in: signed out, or
 * in again, in another tab, which changes the cookie). Either way the page cannot
 * go on; loading it again signs in, or just works when signed in again elsewhere.
 */
function sessionEnded(status: number, code: string, field: string | undefined): boolean {
  if (status === 401 || code === 'UNAUTHORIZED' || code === 'UNAUTHENTICATED') return true;
  return code === 'FORBIDDEN' && field === 'X-CSRF-Token';
}

interface Answer<T> {
  data: T;
  extensions?: { wouldRaise?: string[] };
}

async function post<T>(
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken, ...headers },
      body: JSON.stringify({ query, variables: toGraphQLNames(variables) }),
    });
  } catch {
    throw new ApiError('The server could not be reached. Check your connection and try again.', 'NETWORK');
  }
  let body: { data?: T; errors?: GraphQLError[]; extensions?: Answer<T>['extensions'] };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new ApiError(`The server answered ${response.status} without a readable body.`, 'INTERNAL_ERROR');
  }
  const error = body.errors?.[0];
  if (error) {
    const code = error.extensions?.code ?? 'INTERNAL_ERROR';
    if (sessionEnded(response.status, code, error.extensions?.field)) {
      sessionEndedListeners.forEach((listener) => listener());
    }
    throw new ApiError(error.message, code, error.extensions?.field);
  }
  return { data: body.data as T, extensions: body.extensions };
}

export async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return toWireValues((await post<T>(query, variables)).data);
}

/**
 * The event types a mutation would raise, in order, from a dry run of it
 * (`Prefer: dry-run`: the server answers as it would and keeps nothing). A
 * refusal is the ApiError the mutation itself would throw.
 */
export async function wouldRaise(query: string, variables: Record<string, unknown> = {}): Promise<string[]> {
  const { extensions } = await post<unknown>(query, variables, { Prefer: 'dry-run' });
  return extensions?.wouldRaise ?? [];
}
