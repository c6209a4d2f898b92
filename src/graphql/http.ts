// /graphql: Apollo Server over the shared schema, authenticated like /v1.
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { CredentialResolver } from '../auth/credentials.js';
import type { Services } from '../services.js';
import type { Context } from './context.js';
import type { Logger } from '../logger.js';
import { authenticate, type AuthLocals } from '../rest/authenticate.js';
import type { SharedRateLimiter } from '../rest/rate-limit.js';
import { toDomainError } from '../rest/respond.js';
import { graphQLErrorFormatter } from './errors.js';

export interface GraphQLHttp {
  handler: (RequestHandler | ErrorRequestHandler)[];
  stop(): Promise<void>;
}

export async function createGraphQLHttp(
  schema: GraphQLSchema,
  services: Services,
  credentials: CredentialResolver,
  rateLimiter: SharedRateLimiter,
  bodyLimitBytes: number,
  logger: Logger,
): Promise<GraphQLHttp> {
  const formatError = graphQLErrorFormatter((cause) => logger.error({ err: cause }, 'graphql operation failed'));
  const apollo = new ApolloServer<Context>({ schema, formatError, introspection: true });
  await apollo.start();
  const middleware = expressMiddleware(apollo, {
    // authenticate() ran first: a refused credential fails only the operations that need one.
    context: async ({ res }): Promise<Context> => {
      const { principal, authError } = res.locals as AuthLocals;
      return { principal, authError, services };
    },
  });
  return {
    handler: [
      authenticate(credentials, rateLimiter, { optional: true }),
      express.json({ limit: bodyLimitBytes }),
      middleware,
      graphQLHttpErrorHandler(logger),
    ],
    stop: () => apollo.stop(),
  };
}

/** Errors before Apollo runs (rate limit, body parsing) in GraphQL's response shape. */
function graphQLHttpErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const domain = toDomainError(error);
    if (domain.code === 'INTERNAL_ERROR')
      logger.error({ err: domain.cause ?? error, url: req.originalUrl }, 'graphql request failed');
    if (domain.retryAfter !== undefined) res.setHeader('Retry-After', String(domain.retryAfter));
    const { code, message, field, retryAfter } = domain.toBody();
    res.status(domain.status).json({ errors: [{ message, extensions: { code, field, retryAfter } }] });
  };
}
