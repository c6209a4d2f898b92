// GET /oauth/authorize shows the sign-in page (no session) or the consent page;
// POST /oauth/authorize is the consent form's answer: Allow issues a code and
// sends the browser back to the app, Deny sends it back with access_denied.
// The app must belong to the signed-in user's organization, and the user
// grants at most what they hold themselves.
import express, { type Request, type Response, type Router } from 'express';
import type { Scope } from '../auth/scopes.js';
import { grantableScopes } from '../auth/user-scopes.js';
import type { Services } from '../graphql/modules.js';
import type { SessionUser } from '../graphql/system/session/service.js';
import {
  checkAuthorizeRequest,
  paramsFrom,
  PARAM_NAMES,
  redirectWith,
  type AuthorizeRequest,
} from './authorize-request.js';
import { consentPage, CSRF_FIELD, errorPage, sendFormExpired, sendPage } from './pages.js';
import { csrfToken, sendSignIn, signedInUser, validCsrf } from './session/index.js';

export interface AuthorizeDependencies {
  services: Services;
  issuer: string;
  bodyLimitBytes: number;
}

/** The origin a form may be redirected to after submitting (CSP form-action). */
function formTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin === 'null' ? url.protocol : url.origin;
}

type Decision = { kind: 'consent'; scopes: Scope[]; withheld: Scope[] } | { kind: 'refuse'; redirect: string };

/** What the signed-in user can decide for this request. */
function decide(request: AuthorizeRequest, user: SessionUser, issuer: string): Decision {
  const refuse = (description: string): Decision => ({
    kind: 'refuse',
    redirect: redirectWith(request.redirectUri, {
      error: 'access_denied',
      error_description: description,
      state: request.state,
      iss: issuer,
    }),
  });
  if (user.organizationId !== request.client.organizationId) {
    return refuse("The signed-in user is not a member of the app's organization");
  }
  const scopes = grantableScopes(user, request.scopes);
  if (scopes.length === 0) return refuse('The signed-in user holds none of the requested scopes');
  return { kind: 'consent', scopes, withheld: request.scopes.filter((scope) => !scopes.includes(scope)) };
}

/** The request's parameters, to carry through a form or a URL. */
const carried = (request: AuthorizeRequest): Record<string, string> =>
  Object.fromEntries(
    PARAM_NAMES.filter((name) => request.params[name] !== undefined).map((name) => [name, request.params[name]!]),
  );

export function authorizeRouter(deps: AuthorizeDependencies): Router {
  const router = express.Router();
  const { services, issuer } = deps;
  const form = express.urlencoded({ extended: false, limit: deps.bodyLimitBytes, parameterLimit: 50 });

  router.get('/authorize', async (req: Request, res: Response) => {
    const checked = await checkAuthorizeRequest(services.oauthApps, paramsFrom(req.query), issuer);
    if (!checked.ok) {
      if ('page' in checked) {
        return sendPage(res, 'Invalid request', errorPage(checked.page.message, checked.page.detail), { status: 400 });
      }
      return res.redirect(302, checked.redirect);
    }
    const { request } = checked;
    const user = await signedInUser(req, services.sessions);
    if (!user) return sendSignIn(req, res, { continueTo: req.originalUrl, appName: request.client.name });
    const decision = decide(request, user, issuer);
    if (decision.kind === 'refuse') return res.redirect(302, decision.redirect);
    const body = consentPage({
      csrf: csrfToken(req, res),
      appName: request.client.name,
      appDescription: request.client.description,
      userEmail: user.email,
      scopes: decision.scopes,
      withheld: decision.withheld,
      request: carried(request),
    });
    sendPage(res, `Authorize ${request.client.name}`, body, { formTargets: [formTarget(request.redirectUri)] });
  });

  router.post('/authorize', form, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!validCsrf(req, body[CSRF_FIELD])) {
      return sendFormExpired(res, 'Go back to the app and start again.');
    }
    const checked = await checkAuthorizeRequest(services.oauthApps, paramsFrom(body), issuer);
    if (!checked.ok) {
      if ('page' in checked) {
        return sendPage(res, 'Invalid request', errorPage(checked.page.message, checked.page.detail), { status: 400 });
      }
      return res.redirect(303, checked.redirect);
    }
    const { request } = checked;
    const user = await signedInUser(req, services.sessions);
    if (!user) {
      const again = `/oauth/authorize?${new URLSearchParams(carried(request))}`;
      return sendSignIn(req, res, { continueTo: again, appName: request.client.name, status: 401 });
    }
    const decision = decide(request, user, issuer);
    if (decision.kind === 'refuse') return res.redirect(303, decision.redirect);
    if (body.decision === 'deny') {
      return res.redirect(
        303,
        redirectWith(request.redirectUri, {
          error: 'access_denied',
          error_description: 'The user denied the request',
          state: request.state,
          iss: issuer,
        }),
      );
    }
    if (body.decision !== 'allow') {
      return sendPage(res, 'Invalid request', errorPage('Choose Allow or Deny.'), { status: 400 });
    }
    const code = await services.oauthGrants.createCode({
      appId: request.client.id,
      userId: user.id,
      organizationId: user.organizationId,
      redirectUri: request.redirectUri,
      scopes: decision.scopes,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
    });
    res.redirect(303, redirectWith(request.redirectUri, { code, state: request.state, iss: issuer }));
  });

  return router;
}
