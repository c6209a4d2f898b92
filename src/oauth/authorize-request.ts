// An authorization request (RFC 6749 4.1.1, RFC 7636 4.3) checked in the order
// the RFC asks: first the client and its redirect URI, whose errors go on an
// error page and never to the URI (it may not be the app's); then everything
// else, whose errors go back to the app on its redirect URI.
import { isScope, type Scope } from '../auth/scopes.js';
import type { OAuthClient, OauthAppService } from '../graphql/system/oauth-app/service.js';

export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export const PARAM_NAMES = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: Scope[];
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256';
  /** The parameters as received, to carry through forms. */
  params: AuthorizeParams;
}

export type Checked =
  | { ok: true; request: AuthorizeRequest }
  /** Shown on a page: the redirect URI cannot be trusted. */
  | { ok: false; page: { message: string; detail?: string } }
  /** Sent back to the app on its redirect URI. */
  | { ok: false; redirect: string };

// RFC 7636 4.1: 43 to 128 characters of [A-Za-z0-9-._~]; an S256 challenge is 43.
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;
const MAX_STATE_LENGTH = 1024;

export interface ReceivedParams {
  params: AuthorizeParams;
  /** A parameter given more than once (RFC 6749 3.1 forbids it), or undefined. */
  repeated?: string;
}

/** The parameters from a query or a form body: strings only, one value each. */
export function paramsFrom(source: unknown): ReceivedParams {
  const params: Record<string, string> = {};
  const input = (source ?? {}) as Record<string, unknown>;
  let repeated: string | undefined;
  for (const name of PARAM_NAMES) {
    const value = input[name];
    if (value === undefined) continue;
    if (typeof value === 'string') params[name] = value;
    else repeated ??= name;
  }
  return { params, repeated };
}

/** redirect_uri with the answer's parameters added (keeping the URI's own query). */
export function redirectWith(redirectUri: string, answer: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}

export async function checkAuthorizeRequest(
  apps: OauthAppService,
  { params, repeated }: ReceivedParams,
  issuer: string,
): Promise<Checked> {
  if (repeated === 'client_id' || repeated === 'redirect_uri') {
    return { ok: false, page: { message: `The parameter ${repeated} was given more than once.` } };
  }
  if (!params.client_id) return { ok: false, page: { message: 'The request names no app (client_id is missing).' } };
  const client = await apps.findClient(params.client_id);
  if (!client) return { ok: false, page: { message: 'The app making this request is not known here.' } };
  if (!params.redirect_uri) {
    return { ok: false, page: { message: 'The request has no redirect_uri.', detail: `App: ${client.name}` } };
  }
  if (!client.redirectUris.includes(params.redirect_uri)) {
    return {
      ok: false,
      page: {
        message: 'The redirect_uri of this request is not registered for the app.',
        detail: `App: ${client.name}. Redirect URIs must match a registered one exactly.`,
      },
    };
  }
  const redirectUri = params.redirect_uri;
  const fail = (error: string, description: string): Checked => ({
    ok: false,
    redirect: redirectWith(redirectUri, { error, error_description: description, state: params.state, iss: issuer }),
  });
  if (repeated) return fail('invalid_request', `${repeated} was given more than once`);
  if (params.state !== undefined && params.state.length > MAX_STATE_LENGTH) {
    return fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters`);
  }
  if (params.response_type !== 'code') {
    return params.response_type
      ? fail('unsupported_response_type', 'Only response_type=code is supported')
      : fail('invalid_request', 'response_type is missing; use code');
  }
  const requested = params.scope === undefined ? client.scopes : [...new Set(params.scope.split(' ').filter(Boolean))];
  const unknown = requested.filter((scope) => !isScope(scope));
  if (unknown.length) return fail('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
  if (requested.length === 0) return fail('invalid_scope', 'scope names no scope');
  const beyond = requested.filter((scope) => !client.scopes.includes(scope as Scope));
  if (beyond.length) return fail('invalid_scope', `The app is not registered for: ${beyond.join(' ')}`);
  if (params.code_challenge_method !== undefined && params.code_challenge_method !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
  }
  if (params.code_challenge === undefined) {
    if (params.code_challenge_method !== undefined) return fail('invalid_request', 'code_challenge is missing');
    if (client.requirePkce) return fail('invalid_request', 'PKCE (code_challenge, S256) is required for this app');
  } else {
    if (params.code_challenge_method === undefined) {
      return fail('invalid_request', 'code_challenge_method must be S256 (the default, plain, is not supported)');
    }
    if (!CODE_CHALLENGE.test(params.code_challenge)) {
      return fail('invalid_request', 'code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~]');
    }
  }
  return {
    ok: true,
    request: {
      client,
      redirectUri,
      scopes: requested as Scope[],
      state: params.state,
      codeChallenge: params.code_challenge,
      codeChallengeMethod: params.code_challenge ? 'S256' : undefined,
      params,
    },
  };
}
