// /graphql: Apollo Server over the shared schema, authenticated and rate-limited like /v1,
// and also by a signed-in browser's session with its CSRF token (src/oauth/session/graphql-credential.ts).
// What the endpoint accepts: GET (queries) and POST (JSON bodies, one operation
// each; batched arrays are refused), within the limits of graphql-limits.ts.
// Every refusal is an answer in GraphQL's shape, {errors: [{message, extensions: {code}}]},
// with the status of the code (src/http/errors.ts); none is logged as a fault.
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';
import { createContext, type Context } from '../graphql/context.js';
import { graphQLErrorFormatter } from '../graphql/errors.js';
import { scopedFieldResolver } from '../graphql/kit/field-scopes.js';
import type { Services } from '../graphql/modules.js';
import type { Logger } from '../logger.js';
import { authenticate, RequestRefused, type AuthLocals, type ResolveCredential } from './authenticate.js';
import { jsonBodyReader } from './body.js';
import { toDomainError, writeErrorHead } from './errors.js';
import { documentSizeRefusal, limitValidationRules, limitsPlugin, type GraphQLLimits } from './graphql-limits.js';
import type { SharedRateLimiter } from './rate-limit.js';
import { raisedInDryRun } from '../db/dry-run.js';
import { DRY_RUN, PREFERENCE_APPLIED_HEADER, WOULD_RAISE_HEADER, prefersDryRun, type DryRunner } from './prefer.js';

/** The header a session request carries its CSRF token in (src/oauth/session/graphql-credential.ts). */
export const CSRF_HEADER = 'x-csrf-token';

export interface GraphQLHttp {
  handler: (RequestHandler | ErrorRequestHandler)[];
  stop(): Promise<void>;
}

export async function createGraphQLHttp(
  schema: GraphQLSchema,
  services: Services,
  /** bearerOrSession() (src/oauth/session): the one given to identifyClient in front of this handler too. */
  resolveCredential: ResolveCredential,
  rateLimiter: SharedRateLimiter,
  {
    bodyLimitBytes,
    graphqlLimits: limits,
    dryRun,
  }: Pick<Config, 'bodyLimitBytes' | 'graphqlLimits'> & {
    /** Runs a POST with `Prefer: dry-run` (mutations answer what they would; nothing is kept). */
    dryRun?: DryRunner;
  },
  logger: Logger,
): Promise<GraphQLHttp> {
  const formatError = graphQLErrorFormatter((cause) => logger.error({ err: cause }, 'graphql operation failed'));
  const apollo = new ApolloServer<Context>({
    schema,
    // A field declared with a scope (a salary) is null for callers without it (kit/field-scopes.ts).
    fieldResolver: scopedFieldResolver,
    // The service stops Apollo in its own shutdown order (src/main.ts).
    stopOnTerminationSignals: false,
    formatError,
    introspection: true,
    // graphql-js's parser stops at this many tokens, before its recursion can go deep.
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: limitValidationRules(limits),
    // Inline tracing serves federation subgraphs only (this schema is none); said here, Apollo
    // does not load it and the usage-reporting protobuf code it brings (a few MB of heap).
    plugins: [limitsPlugin(limits), persistedQueryStatus, wouldRaise, ApolloServerPluginInlineTraceDisabled()],
    allowBatchedHttpRequests: false,
    // Apollo's own CSRF check (a GET must carry a header no plain form or <img> can send):
    // the dashboard's X-CSRF-Token is such a header too.
    csrfPrevention: { requestHeaders: ['x-apollo-operation-name', 'apollo-require-preflight', CSRF_HEADER] },
  });
  await apollo.start();
  const middleware = expressMiddleware(apollo, {
    // authenticate() ran first: a refused credential fails only the operations that need one.
    context: async ({ req, res }): Promise<Context> => {
      const { principal, authError } = res.locals as AuthLocals;
      const context = createContext(services, principal, authError);
      if (dryRun && isDryRun(req)) context.dryRun = { organizationId: principal?.organizationId ?? '' };
      return context;
    },
  });
  const readJsonBody = jsonBodyReader(bodyLimitBytes);
  return {
    handler: [
      onlyGetAndPost,
      authenticate(resolveCredential, rateLimiter, { optional: true }),
      refuseSession,
      (req: Request, res: Response, next: NextFunction) => {
        // A GET carries its operation in the URL; Apollo's middleware still wants req.body set.
        if (req.method !== 'POST') {
          req.body = undefined;
          return next();
        }
        readJsonBody(req, res).then(() => next(), next);
      },
      graphQLRequestShape(limits),
      (req: Request, res: Response, next: NextFunction) => {
        if (!dryRun || !isDryRun(req)) return middleware(req, res, next);
        res.setHeader(PREFERENCE_APPLIED_HEADER, DRY_RUN);
        const { principal } = res.locals as AuthLocals;
        dryRun(principal?.organizationId ?? '', async () => {
          await middleware(req, res, next);
        }).catch(next);
      },
      graphQLHttpErrorHandler(logger),
    ],
    stop: () => apollo.stop(),
  };
}

/**
 * A session request without its CSRF token (403), or whose session has ended
 * (401): refused whatever it asks, so a forged request never runs, not even
 * an operation that needs no credential.
 */
const refuseSession: RequestHandler = (_req, res, next) => {
  const { authError } = res.locals as AuthLocals;
  next(authError instanceof RequestRefused ? authError : undefined);
};

/** 405 with Allow for any other method, before credentials or bodies are read. */
const onlyGetAndPost: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'POST') return next();
  res.setHeader('Allow', 'GET, POST');
  next(new DomainError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /graphql; use GET or POST`));
};

/**
 * What Apollo would refuse with less helpful words, or not at all: a batch (a
 * JSON array), a body that is not an object, no query, a query that is not a
 * string or is longer than the document limit.
 */
function graphQLRequestShape(limits: GraphQLLimits): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    let query: unknown;
    let persisted = false;
    if (req.method === 'POST') {
      const body: unknown = req.body;
      if (Array.isArray(body)) {
        return next(
          new DomainError(
            'VALIDATION_ERROR',
            'Batched requests (a JSON array of operations) are not supported: send one operation per request',
          ),
        );
      }
      if (typeof body !== 'object' || body === null) {
        return next(
          new DomainError('VALIDATION_ERROR', 'The request body must be a JSON object with a "query" string'),
        );
      }
      const request = body as { query?: unknown; extensions?: { persistedQuery?: unknown } };
      query = request.query;
      persisted = typeof request.extensions === 'object' && request.extensions?.persistedQuery !== undefined;
    } else {
      const search = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
      query = search.get('query') ?? undefined;
      persisted = search.has('extensions');
    }
    if (query !== undefined && query !== null && typeof query !== 'string') {
      return next(new DomainError('VALIDATION_ERROR', 'The "query" must be a string (a GraphQL document)', 'query'));
    }
    if (!query && !persisted) {
      return next(
        new DomainError('VALIDATION_ERROR', 'The request has no "query": send a GraphQL document in it', 'query'),
      );
    }
    const tooLarge = typeof query === 'string' ? documentSizeRefusal(query, limits) : undefined;
    next(tooLarge);
  };
}

/** An unknown persisted-query hash is a 404 (Apollo answers 200), so no cache or proxy takes it for a success. */
/** Only a POST can carry a mutation; a GET changes nothing whatever it prefers. */
const isDryRun = (req: Request) => req.method === 'POST' && prefersDryRun(req.headers);

/** A dry run's answer names the events its mutations would raise: a header, and `extensions.wouldRaise`. */
const wouldRaise: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, response }) {
        if (!contextValue.dryRun) return;
        const raised = await raisedInDryRun(contextValue.dryRun.organizationId);
        if (raised.length) response.http.headers.set(WOULD_RAISE_HEADER.toLowerCase(), raised.join(', '));
        if (response.body.kind === 'single') {
          response.body.singleResult.extensions = { ...response.body.singleResult.extensions, wouldRaise: raised };
        }
      },
    };
  },
};

const persistedQueryStatus: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ errors, response }) {
        if (errors?.some((error) => error.extensions?.code === 'PERSISTED_QUERY_NOT_FOUND')) {
          response.http.status = 404;
        }
      },
    };
  },
};

/** Errors before Apollo runs (method, rate limit, body, request shape) in GraphQL's response shape. */
function graphQLHttpErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const domain = toDomainError(error);
    if (domain.code === 'INTERNAL_ERROR')
      logger.error({ err: domain.cause ?? error, url: req.originalUrl }, 'graphql request failed');
    writeErrorHead(res, domain);
    const { code, message, field, retryAfter } = domain.toBody();
    res.json({ errors: [{ message, extensions: { code, field, retryAfter } }] });
  };
}
