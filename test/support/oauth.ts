// What OAuth tests share: users and apps made as an operator would, PKCE
// pairs, and a small browser (fetch with a cookie jar, redirects by hand) that
// reads the sign-in and consent pages' forms and submits them like a person.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { operatorPrincipal } from '../../src/auth/principal.js';
import type { Scope } from '../../src/auth/scopes.js';
import type { ServerFixture } from './fixtures.js';

export const PASSWORD = 'correct horse battery staple';

let counter = 0;

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/** A user of the organization: an admin, or a member with these scopes. */
export async function createUser(
  server: ServerFixture,
  organizationId: string,
  rights: { role: 'admin' } | { role: 'member'; scopes: Scope[] } = { role: 'admin' },
): Promise<TestUser> {
  const email = `user-${process.pid}-${Date.now()}-${++counter}@example.test`;
  const user = await server.services.users.create(operatorPrincipal(organizationId), {
    email,
    password: PASSWORD,
    ...rights,
  });
  return { id: user.id, email, password: PASSWORD };
}

export interface TestApp {
  id: string;
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
}

export async function createApp(
  server: ServerFixture,
  organizationId: string,
  options: {
    redirectUris?: string[];
    scopes?: Scope[];
    clientType?: 'confidential' | 'public';
    name?: string;
    /** Unset: the service's default (true). */
    requirePkce?: boolean;
  } = {},
): Promise<TestApp> {
  const redirectUris = options.redirectUris ?? ['http://127.0.0.1:8765/callback'];
  const app = await server.services.oauthApps.create(operatorPrincipal(organizationId), {
    name: options.name ?? 'Test App',
    description: 'Syncs your contacts with Test App.',
    redirectUris,
    scopes: options.scopes ?? ['crm:read', 'crm:write'],
    clientType: options.clientType ?? 'confidential',
    ...(options.requirePkce !== undefined && { requirePkce: options.requirePkce }),
  });
  return { id: app.id, clientId: app.clientId, clientSecret: app.clientSecret, redirectUri: redirectUris[0]! };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const unescape = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export interface Form {
  action: string;
  fields: Record<string, string>;
}

/** The page's (first) form: its action and its hidden fields. */
export function formOf(html: string): Form {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  expect(form, html).not.toBeNull();
  const fields: Record<string, string> = {};
  for (const [, name, value] of form![2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) {
    fields[unescape(name!)] = unescape(value!);
  }
  return { action: unescape(form![1]!), fields };
}

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  location?: string;
}

/** A browser: keeps cookies, does not follow redirects (tests look at each one). */
export class Browser {
  readonly cookies = new Map<string, string>();

  /** `headers` go with every request (e.g. X-Forwarded-For, as a proxy in front would add). */
  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private async send(path: string, init: RequestInit): Promise<Page> {
    const headers = new Headers(this.headers);
    new Headers(init.headers).forEach((value, name) => headers.set(name, value));
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(path, this.base), { ...init, headers, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return {
      status: res.status,
      headers: res.headers,
      html: await res.text(),
      location: res.headers.get('location') ?? undefined,
    };
  }

  get(path: string): Promise<Page> {
    return this.send(path, { method: 'GET' });
  }

  post(path: string, fields: Record<string, string>): Promise<Page> {
    return this.send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Fills in the sign-in form of `page` and submits it. */
  signIn(page: Page, user: { email: string; password: string }): Promise<Page> {
    const form = formOf(page.html);
    expect(form.action).toBe('/oauth/sign-in');
    return this.post(form.action, { ...form.fields, email: user.email, password: user.password });
  }

  /** Presses Allow or Deny on the consent page `page`. */
  decide(page: Page, decision: 'allow' | 'deny'): Promise<Page> {
    const form = formOf(page.html);
    expect(form.action).toBe('/oauth/authorize');
    return this.post(form.action, { ...form.fields, decision });
  }

  /**
   * Opens the authorization URL, signs in if asked, and answers the consent page:
   * the redirect back to the app (its Location).
   */
  async authorize(url: string, user: { email: string; password: string }, decision: 'allow' | 'deny' = 'allow') {
    let page = await this.get(url);
    if (page.html.includes('action="/oauth/sign-in"')) {
      const signedIn = await this.signIn(page, user);
      expect(signedIn.status, signedIn.html).toBe(303);
      page = await this.get(signedIn.location!);
    }
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('Allow');
    const answer = await this.decide(page, decision);
    expect(answer.status, answer.html).toBe(303);
    return new URL(answer.location!);
  }
}

/** The /oauth/authorize URL with these parameters. */
export function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/oauth/authorize?${query}`;
}

/** The authorization URL of a code request for the app (with a PKCE challenge): its sign-in and consent pages. */
export function consentUrl(app: TestApp): string {
  return authorizeUrl({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    response_type: 'code',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  });
}

/** POST /oauth/token with a form body (or JSON with { json: true }). */
export async function tokenRequest(
  server: ServerFixture,
  params: Record<string, string | undefined>,
  options: { json?: boolean; basic?: [string, string]; path?: string } = {},
) {
  const body = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const headers: Record<string, string> = {
    'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
  };
  if (options.basic) {
    headers.authorization = `Basic ${Buffer.from(`${options.basic[0]}:${options.basic[1]}`).toString('base64')}`;
  }
  const res = await fetch(`${server.url}${options.path ?? '/oauth/token'}`, {
    method: 'POST',
    headers,
    body: options.json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, headers: res.headers, text, body: json as any };
}

export interface CodeOptions {
  scope?: string;
  state?: string;
  pkce?: boolean;
  browser?: Browser;
}

/** Runs sign-in and consent for the app and answers the code and its PKCE verifier. */
export async function obtainCode(
  server: ServerFixture,
  app: TestApp,
  user: { email: string; password: string },
  options: CodeOptions = {},
): Promise<{ code: string; verifier?: string; browser: Browser }> {
  const browser = options.browser ?? new Browser(server.url);
  const pair = options.pkce === false ? undefined : pkcePair();
  const back = await browser.authorize(
    authorizeUrl({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: options.scope ?? 'crm:read',
      state: options.state ?? 'state-1',
      code_challenge: pair?.challenge,
      code_challenge_method: pair ? 'S256' : undefined,
    }),
    user,
  );
  const code = back.searchParams.get('code');
  expect(code, back.toString()).toMatch(/^bpac_/);
  return { code: code!, verifier: pair?.verifier, browser };
}

/** Exchanges a code as a confidential app (client_secret_post). */
export function exchangeCode(server: ServerFixture, app: TestApp, code: string, verifier?: string) {
  return tokenRequest(server, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: app.redirectUri,
    client_id: app.clientId,
    client_secret: app.clientSecret ?? undefined,
    code_verifier: verifier,
  });
}

/** A fresh token pair for the app and user, through sign-in and consent. */
export async function obtainTokens(
  server: ServerFixture,
  app: TestApp,
  user: { email: string; password: string },
  options: CodeOptions = {},
) {
  const { code, verifier } = await obtainCode(server, app, user, options);
  const res = await exchangeCode(server, app, code, verifier);
  expect(res.status, res.text).toBe(200);
  return res.body as { access_token: string; refresh_token: string; scope: string; expires_in: number };
}

/** An API key with its secret (the client_credentials grant's client), made as an operator would. */
export async function createKeyWithSecret(
  server: ServerFixture,
  organizationId: string,
  scopes: Scope[],
  options: { expiresAt?: Date } = {},
): Promise<{ id: string; key: string; secret: string }> {
  const created = await server.services.apiKeys.create(operatorPrincipal(organizationId), {
    name: 'client credentials',
    scopes,
    ...(options.expiresAt && { expiresAt: options.expiresAt.toISOString() }),
  });
  return { id: created.id, key: created.key, secret: created.secret };
}
