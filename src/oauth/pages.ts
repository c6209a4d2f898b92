// The pages of the authorization service: sign in, consent, and an error that
// must not go back to the app. Plain forms that work without JavaScript; every
// form carries the CSRF token.
import type { Response } from 'express';
import { SCOPE_DESCRIPTIONS, type Scope } from '../auth/scopes.js';
import { html, layout, STYLE_HASH, type SafeHtml } from './html.js';

export const CSRF_FIELD = 'csrf_token';

export interface PageOptions {
  status?: number;
  /** Origins the page's form may submit to, or be redirected to after submitting (CSP form-action). */
  formTargets?: string[];
}

/** Sends a page with headers fit for it: no caching, no framing, no scripts, no referrer. */
export function sendPage(res: Response, title: string, body: SafeHtml, options: PageOptions = {}): void {
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(' ');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res
    .status(options.status ?? 200)
    .type('html')
    .send(layout(title, body));
}

const hidden = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`);

export interface SignInPage {
  csrf: string;
  /** Where to go once signed in (a local path). */
  continueTo: string;
  /** Who is asking, when the sign-in is for an app. */
  appName?: string;
  email?: string;
  error?: string;
}

export function signInPage(page: SignInPage): SafeHtml {
  return html`<h1>Sign in</h1>
    ${page.appName ? html`<p><strong>${page.appName}</strong> wants to access your account. Sign in to continue.</p>` : ''}
    ${page.error ? html`<p class="error" role="alert">${page.error}</p>` : ''}
    <form method="post" action="/oauth/sign-in">
      ${hidden({ [CSRF_FIELD]: page.csrf, continue: page.continueTo })}
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${page.email ?? ''}" />
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required />
      <button type="submit">Sign in</button>
    </form>`;
}

export interface ConsentPage {
  csrf: string;
  appName: string;
  appDescription: string | null;
  userEmail: string;
  /** The scopes the user is asked for, each of which they may grant. */
  scopes: Scope[];
  /** Requested scopes the user does not hold: not granted. */
  withheld: Scope[];
  /** The authorization request, carried through the form. */
  request: Record<string, string | undefined>;
}

export function consentPage(page: ConsentPage): SafeHtml {
  return html`<h1>Allow ${page.appName} to access your account?</h1>
    ${page.appDescription ? html`<p>${page.appDescription}</p>` : ''}
    <p>${page.appName} will be able to:</p>
    <ul class="scopes">
      ${page.scopes.map((scope) => html`<li>${SCOPE_DESCRIPTIONS[scope]} <code>${scope}</code></li>`)}
    </ul>
    ${
      page.withheld.length
        ? html`<p class="muted">Also asked for, but not yours to grant: ${page.withheld.join(', ')}.</p>`
        : ''
    }
    <p class="muted">Signed in as ${page.userEmail}.</p>
    <form method="post" action="/oauth/authorize">
      ${hidden({ ...page.request, [CSRF_FIELD]: page.csrf })}
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
    </form>`;
}

export function errorPage(message: string, detail?: string): SafeHtml {
  return html`<h1>Something is wrong with this request</h1>
    <p class="error" role="alert">${message}</p>
    ${detail ? html`<p class="muted">${detail}</p>` : ''}
    <p class="muted">You can close this page. If an app sent you here, tell its developers.</p>`;
}

/** 403 for a form whose CSRF token is missing or not this browser's. */
export function sendFormExpired(res: Response, detail?: string): void {
  sendPage(res, 'Form expired', errorPage('This form has expired or did not come from this site.', detail), {
    status: 403,
  });
}
