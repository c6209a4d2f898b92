// OAuth app input and list arguments, each written once (see kit/inputs.ts, kit/list.ts).
import { z } from 'zod';
import { hasNoNul, NUL_MESSAGE } from '../../../validation.js';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter } from '../../kit/list.js';
import { scopeList, text } from '../../kit/values.js';
import { CLIENT_TYPES } from './type.js';
import { ScopeEnum } from '../../kit/wire-enums.js';

export const MAX_REDIRECT_URIS = 10;

/** Why a redirect URI is not acceptable, or undefined (RFC 6749 3.1.2, RFC 8252 7.1). */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (value.includes('#')) return 'must not have a fragment (#)';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:' || url.protocol === 'http:') return url.hostname ? undefined : 'must name a host';
  // A native app's private-use scheme is a reversed domain name (com.example.app:/callback).
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/i.test(url.protocol)) return undefined;
  if (/^(javascript|data|file|vbscript):$/i.test(url.protocol)) return 'must be an http(s) URL';
  return 'must be an http(s) URL or a reversed-domain private-use scheme (com.example.app:/callback)';
}

const redirectUri = z
  .string('must be a string')
  .trim()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .refine(hasNoNul, NUL_MESSAGE)
  .superRefine((value, ctx) => {
    const problem = redirectUriProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} ${problem}` });
  });

const redirectUriList = z
  .array(redirectUri, 'must be an array of redirect URIs')
  .min(1, 'must name at least one redirect URI')
  .max(MAX_REDIRECT_URIS, `must name at most ${MAX_REDIRECT_URIS} redirect URIs`)
  .transform((values) => [...new Set(values)]);

export const oauthAppInput = defineInput('OauthApp', {
  name: required(text(200)),
  description: optional(text(1000)),
  redirectUris: required(redirectUriList, {
    description: 'Absolute URLs without a fragment, matched exactly at /oauth/authorize.',
  }),
  scopes: required(scopeList({ min: 1 }), {
    graphql: () => [ScopeEnum],
    description: 'The most a user can grant the app.',
  }),
  clientType: optional(z.enum(CLIENT_TYPES, { message: 'must be confidential or public' }), {
    createOnly: true,
    description: '`confidential` (the default: a secret is issued) or `public` (no secret; PKCE required).',
  }),
  requirePkce: optional(z.boolean(), {
    description:
      'Refuse authorization requests without a PKCE challenge (RFC 9700 2.1.1). Default true; a public app cannot turn it off.',
  }),
});

export const oauthAppList = defineList('OauthApp', {
  sort: ['createdAt', 'updatedAt', 'name'],
  filters: {
    clientId: filter(text(100), {
      description: 'The app with this client_id.',
      where: (p) => `"OAuthApp"."clientId" = ${p}`,
    }),
  },
});
