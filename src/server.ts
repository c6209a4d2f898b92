// Composes the HTTP service: /v1 (REST), /graphql, /oauth, health; and owns the
// long-lived parts (database client, key cache, rate-limit store) to close them.
import type { RequestListener } from 'node:http';
import express, { type Request, type Response } from 'express';
import type pg from 'pg';
import type { Config } from './config.js';
import { CredentialResolver } from './auth/credentials.js';
import { serverKeysFor } from './auth/server-keys.js';
import { dryRun } from './db/dry-run.js';
import { connectDatabase, type PrismaClient } from './db/prisma.js';
import type { DatabaseUrls } from './db/server.js';
import { serverStatementTimeoutMs } from './db/transaction-pooling.js';
import { RETRY_AFTER_SECONDS } from './db/unavailable.js';
import { DomainError } from './errors.js';
import { dashboardRouter } from './dashboard/router.js';
import { FAVICON_PATH, sendFavicon } from './http/favicon.js';
import { docsRouter } from './docs/router.js';
import { createServices, type Services } from './graphql/modules.js';
import { getSchema } from './graphql/schema.js';
import { bearer, identifyClient } from './http/authenticate.js';
import { declarePublicUrl } from './http/https-request.js';
import { bodyGuard } from './http/body.js';
import { sendError } from './http/errors.js';
import { createGraphQLHttp } from './http/graphql.js';
import type { DryRunner } from './http/prefer.js';
import { IdempotencyStore } from './http/idempotency.js';
import { measureRequests, mountName, routeName } from './http/metrics.js';
import { SharedRateLimiter } from './http/rate-limit.js';
import { createRateLimitStore } from './http/rate-limit-store.js';
import { securityHeaders } from './http/security-headers.js';
import { requireHostHeader } from './http/server-options.js';
import type { Logger } from './logger.js';
import { watchPool } from './metrics/sources.js';
import { metadataHandler } from './oauth/metadata.js';
import { createOAuthRouter, oauthErrorHandler } from './oauth/router.js';
import { bearerOrSession } from './oauth/session/graphql-credential.js';
import { OutageLog } from './outage-log.js';
import { proxyWatch } from './local-conveniences.js';
import { createRestRouter, restErrorHandler } from './rest/app.js';
import { directLane } from './rest/direct-lane.js';

export interface Platform {
  /** What the HTTP server calls: the /v1 direct lane, else the Express app. */
  listener: RequestListener;
  prisma: PrismaClient;
  services: Services;
  close(): Promise<void>;
}

export async function createPlatform(config: Config, database: DatabaseUrls, logger: Logger): Promise<Platform> {
  // First, before anything is opened: the development key file may have to be written.
  const keys = await serverKeysFor(config);
  // Connection errors carry the whole pg client; log what an operator can use.
  // A database outage answers many requests 503 and drops every pooled connection:
  // logged when it starts and when it ends, not once per request or connection.
  const outages = new OutageLog(logger, 'requests');
  const connectionErrorLogger = (what: string) => (error: Error & { code?: string }) =>
    outages.failed(`${what} connection error`, { code: error.code, error: error.message });
  const logConnectionError = connectionErrorLogger('database');
  const { prisma, pool, disconnect } = connectDatabase(database.url, config.databasePoolSize, logConnectionError, {
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    poolTimeoutMs: config.databasePoolTimeoutMs,
    pooled: database.pooled,
  });
  if (database.pooled) await warnOfUnguardedStatements(pool, config.databaseStatementTimeoutMs, logger);
  const unwatchPool = watchPool('api', pool);
  const credentials = new CredentialResolver(prisma, logger);
  const services = createServices({ prisma, pool, config, credentialsChanged: (id) => credentials.forget(id) });
  // LISTEN needs a session: a transaction pooler would drop the notifications.
  await credentials.listen(database.directUrl);
  await services.changes.listen(database.directUrl);
  const rateLimitStore = await createRateLimitStore({
    ...config.rateLimit,
    unauthenticatedMax: config.unauthenticatedRateLimit.max,
    databaseUrl: database.url,
    pooled: database.pooled,
    redisUrl: config.redisUrl,
    onError: connectionErrorLogger('rate-limit store'),
    onRedisAway: (away, error) =>
      away
        ? logger.warn(
            { error: error?.message },
            'Redis is unreachable: rate limits are counted in this process until it is back',
          )
        : logger.info('Redis is reachable again: rate limits are shared again'),
  });
  const rateLimiter = new SharedRateLimiter(rateLimitStore.limiter, config.rateLimit.max, 'credential');
  const unauthenticatedRateLimiter = new SharedRateLimiter(
    rateLimitStore.unauthenticatedLimiter,
    config.unauthenticatedRateLimit.max,
    'address',
  );
  // Expired keys are pruned by the worker's hourly job (src/jobs/prune.ts).
  const idempotency = new IdempotencyStore(prisma, keys);
  const schema = await getSchema();
  // /graphql alone also takes a signed-in browser's session (with its CSRF token).
  const graphqlCredential = bearerOrSession(credentials, services.sessions);
  const dryRunner: DryRunner = (organizationId, work) => dryRun(pool, organizationId, work);
  const graphql = await createGraphQLHttp(
    schema,
    services,
    graphqlCredential,
    rateLimiter,
    { ...config, dryRun: dryRunner },
    logger,
  );

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Whose X-Forwarded-For (req.ip: per-address budgets) and X-Forwarded-Proto (req.secure) to believe.
  app.set('trust proxy', config.trustProxy);
  declarePublicUrl(app, config.publicUrl);

  const rest = createRestRouter({
    schema,
    services,
    credentials,
    rateLimiter,
    idempotency,
    logger,
    outages,
    bodyLimitBytes: config.bodyLimitBytes,
    publicUrl: config.publicUrl,
    dryRun: dryRunner,
  });
  // First: every answer is timed, the guards' and the error handlers' too.
  // Then the security headers; Node's own Host check is off (configureHttpServer),
  // so that this answer is in the envelope.
  const front = [measureRequests, securityHeaders(), requireHostHeader];
  // Before anything reads a body or a credential: a declared body over the limit, an
  // unknown Content-Encoding, then the budget of requests without a valid credential.
  const bodyLimit = bodyGuard(config.bodyLimitBytes, (req) =>
    req.method === 'POST' && /^(?:\/v1)?\/imports\/?(?:\?|$)/i.test(req.originalUrl ?? req.url ?? '')
      ? config.importMaxBytes
      : undefined,
  );
  // A valid credential spends its own budget wherever it goes (/oauth, /docs, /dashboard too), once.
  const guards = [bodyLimit, identifyClient(bearer(credentials), unauthenticatedRateLimiter, rateLimiter)];
  const errorHandler = restErrorHandler(logger, outages);
  // A /v1 route row runs `front`, `guards` and its handlers before Express, on Node's
  // own request and response (src/rest/direct-lane.ts); anything else goes through the
  // stack below, which stays the whole definition of the order.
  const lane = directLane({
    app,
    mount: '/v1',
    before: [mountName('/v1'), ...front, ...guards],
    routes: rest.routes,
    onError: errorHandler,
  });
  app.use(...front);
  // Metrics name each mount as declared here, whatever the letter case the client sent.
  for (const mount of ['/v1', '/oauth', '/dashboard', '/docs']) app.use(mount, mountName(mount));
  // Liveness costs nothing and must answer probes whatever else happens: before any limit.
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  // /graphql first, with its guards inside its chain, so their errors get GraphQL's shape.
  app.use(
    '/graphql',
    routeName('/graphql'),
    bodyLimit,
    identifyClient(graphqlCredential, unauthenticatedRateLimiter, rateLimiter),
    ...graphql.handler,
  );
  // /oauth likewise, so its guards' errors are pages or RFC 6749 JSON.
  const { signIn } = config.oauth;
  const oauth = createOAuthRouter({
    services,
    config,
    logger,
    signInLimits: {
      account: rateLimitStore.budget('signin_account', signIn.maxFailuresPerAccount, signIn.windowSeconds),
      address: rateLimitStore.budget('signin_address', signIn.maxFailuresPerAddress, signIn.windowSeconds),
    },
  });
  app.use('/oauth', ...guards, oauth, oauthErrorHandler(logger));
  app.use(...guards);
  app.get('/.well-known/oauth-authorization-server', metadataHandler(config.publicUrl));
  app.get(['/favicon.ico', FAVICON_PATH], sendFavicon);
  // The dashboard (browser pages over /graphql with the sign-in session): the front door for a
  // browser; an API client asking for / still gets the JSON 404 of any unknown path.
  app.get('/', (req, res, next) =>
    req.accepts(['json', 'html']) === 'html' ? res.redirect(302, '/dashboard') : next(),
  );
  app.use('/dashboard', dashboardRouter({ sessions: services.sessions, services }));
  // The API reference: /v1/openapi.json rendered in the browser, nothing fetched from elsewhere.
  app.use('/docs', docsRouter());
  app.get('/readyz', async (_req, res) => {
    try {
      await prisma.$queryRaw`select 1`;
      outages.passed();
      // Redis away degrades the rate limits (counted per process), it does not stop the service.
      res.json(rateLimitStore.degraded() ? { status: 'ready', degraded: ['redis'] } : { status: 'ready' });
    } catch {
      const retryAfter = RETRY_AFTER_SECONDS.unreachable;
      sendError(
        res,
        new DomainError('SERVICE_UNAVAILABLE', 'The database is not reachable', undefined, { retryAfter }),
      );
    }
  });
  app.use('/v1', rest.router);
  app.use((req: Request, res: Response) =>
    sendError(res, new DomainError('NOT_FOUND', `No route for ${req.method} ${req.path}`)),
  );
  app.use(errorHandler);

  // Local conveniences guessed from the configuration end at the first sign of a proxy, before that request runs.
  const watchForProxy = proxyWatch(config, logger);
  return {
    listener: (req, res) => {
      watchForProxy(req);
      return lane(req, res) || app(req, res);
    },
    prisma,
    services,
    async close() {
      await graphql.stop();
      await credentials.close();
      await services.changes.close();
      await rateLimitStore.close();
      unwatchPool();
      await disconnect();
    },
  };
}

/**
 * Behind a transaction pooler the statement timeout is set per transaction; a
 * single statement outside one runs under the server's default for the role,
 * which the operator sets (README, PgBouncer). Said at start when it is missing.
 */
async function warnOfUnguardedStatements(pool: pg.Pool, configuredMs: number, logger: Logger): Promise<void> {
  if (configuredMs === 0) return;
  // A database that does not answer yet is reported by the requests that need it.
  const serverMs = await serverStatementTimeoutMs(pool).catch(() => undefined);
  if (serverMs === undefined) return;
  if (serverMs === 0 || serverMs > configuredMs) {
    logger.warn(
      { serverStatementTimeoutMs: serverMs, configuredMs },
      'behind PgBouncer, DATABASE_STATEMENT_TIMEOUT_MS holds in transactions only; statements outside one ' +
        "run under the role's statement_timeout: set it (ALTER ROLE <user> SET statement_timeout = '5s')",
    );
  }
}
