// /graphql: Apollo Server over the shared schema, authenticated and rate-limited like /v1.
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { CredentialResolver } from '../auth/credentials.js';
import { createContext, type Context } from '../graphql/context.js';
import { graphQLErrorFormatter } from '../graphql/errors.js';
import type { Services } from '../graphql/modules.js';
import type { Logger } from '../logger.js';
import { authenticate, type AuthLocals } from './authenticate.js';
import { toDomainError, writeErrorHead } from './errors.js';
import type { SharedRateLimiter } from './rate-limit.js';

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
      return createContext(services, principal, authError);
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
    writeErrorHead(res, domain);
    const { code, message, field, retryAfter } = domain.toBody();
    res.json({ errors: [{ message, extensions: { code, field, retryAfter } }] });
  };
}
