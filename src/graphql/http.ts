// /graphql: Apollo Server over the shared schema, authenticated like /v1.
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { CredentialResolver } from '../auth/credentials.js';
import type { Services } from '../services.js';
import type { Context } from './context.js';
import type { Logger } from '../logger.js';
import { graphQLErrorFormatter } from './errors.js';

export interface GraphQLHttp {
  handler: RequestHandler[];
  stop(): Promise<void>;
}

export async function createGraphQLHttp(
  schema: GraphQLSchema,
  services: Services,
  credentials: CredentialResolver,
  bodyLimitBytes: number,
  logger: Logger,
): Promise<GraphQLHttp> {
  const formatError = graphQLErrorFormatter((cause) => logger.error({ err: cause }, 'graphql operation failed'));
  const apollo = new ApolloServer<Context>({ schema, formatError, introspection: true });
  await apollo.start();
  const middleware = expressMiddleware(apollo, {
    context: async ({ req }): Promise<Context> => {
      try {
        return { principal: await credentials.resolve(req.headers.authorization), services };
      } catch (error) {
        return { authError: error as Error, services };
      }
    },
  });
  return { handler: [express.json({ limit: bodyLimitBytes }), middleware], stop: () => apollo.stop() };
}
