// Everything under /oauth: sign-in, authorize (pages), token, revoke and
// introspect (RFC 6749 JSON), with one error handler that answers each kind
// in its own form: an HTML page for the browser, {error, error_description}
// for clients.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Services } from '../graphql/modules.js';
import { httpStatusOf, toDomainError } from '../http/errors.js';
import { authorizeRouter } from './authorize.js';
import { oauthBodyReader, type OAuthParams } from './body.js';
import { OAuthProblem, sendOAuthError } from './errors.js';
import { errorPage, sendPage } from './pages.js';
import { introspectionEndpoint, revocationEndpoint } from './revocation.js';
import { signInRouter, type SignInLimits } from './session/index.js';
import { tokenEndpoint } from './token.js';

export interface OAuthDependencies {
  services: Services;
  config: Config;
  logger: Logger;
  signInLimits: SignInLimits;
}

/** The endpoints that answer clients in JSON (the rest are browser pages). */
const CLIENT_ENDPOINTS = ['/token', '/revoke', '/introspect'];

export function createOAuthRouter(deps: OAuthDependencies): Router {
  const { services, config, logger } = deps;
  const issuer = config.publicUrl;
  const router = express.Router();
  const readBody = oauthBodyReader(config.bodyLimitBytes);

  router.use(
    signInRouter({ sessions: services.sessions, limits: deps.signInLimits, bodyLimitBytes: config.bodyLimitBytes }),
  );
  router.use(authorizeRouter({ services, issuer, bodyLimitBytes: config.bodyLimitBytes }));

  const endpoints: Record<string, (req: Request, res: Response, params: OAuthParams) => Promise<void>> = {
    '/token': tokenEndpoint({
      services,
      logger,
      accessTokenLifetimeSeconds: config.oauth.accessTokenLifetimeSeconds,
      refreshTokenLifetimeSeconds: config.oauth.refreshTokenLifetimeSeconds,
    }),
    '/revoke': revocationEndpoint(services),
    '/introspect': introspectionEndpoint(services, issuer),
  };
  for (const [path, endpoint] of Object.entries(endpoints)) {
    router.post(path, async (req: Request, res: Response) => endpoint(req, res, await readBody(req, res)));
    router.all(path, (_req: Request, res: Response) => {
      res.setHeader('Allow', 'POST');
      sendOAuthError(res, new OAuthProblem('invalid_request', `Use POST for ${path}`, 405));
    });
  }
  router.all('/authorize', (_req: Request, res: Response) => {
    res.setHeader('Allow', 'GET, POST');
    sendPage(res, 'Not allowed', errorPage('Use GET or POST for /oauth/authorize.'), { status: 405 });
  });
  router.use((req: Request, res: Response) => {
    sendOAuthError(res, new OAuthProblem('invalid_request', `No route for ${req.method} /oauth${req.path}`, 404));
  });
  return router;
}

/** For /oauth's chain (its guards included): errors as a page or as RFC 6749 JSON. */
export function oauthErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return res.end();
    if (CLIENT_ENDPOINTS.includes(req.path)) return sendOAuthError(res, error, logger);
    const domain = toDomainError(error);
    const internal = domain.code === 'INTERNAL_ERROR';
    if (internal) logger.error({ err: domain.cause ?? error, url: req.originalUrl }, 'OAuth page failed');
    if (domain.retryAfter !== undefined) res.setHeader('Retry-After', String(domain.retryAfter));
    const message = internal ? 'Something went wrong on our side. Try again later.' : domain.message;
    sendPage(res, 'Error', errorPage(message), { status: httpStatusOf(domain) });
  };
}
