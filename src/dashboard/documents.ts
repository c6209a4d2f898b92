// The finance documents for the signed-in browser: GET /dashboard/finance/invoices/:id/pdf
// and /dashboard/finance/credit-notes/:id/pdf, the same files as /v1's (the
// documents module's routes: their operation, scope and rendering) with the
// sign-in session instead of an API key. A GET that changes nothing needs no
// CSRF token: another site can make the browser fetch the file, not read it.
// Without a session the sign-in form continues to the file; refusals (no
// finance:read, another organization's or no such record) are the API's envelope.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Response, type Router } from 'express';
import type { Scope } from '../auth/scopes.js';
import { hasScope } from '../auth/scopes.js';
import { missingScope } from '../graphql/auth-checker.js';
import { createContext } from '../graphql/context.js';
import { creditNotePdfRoute, invoicePdfRoute } from '../graphql/finance/documents/routes.js';
import type { RestRoute } from '../graphql/kit/routes.js';
import type { Services } from '../graphql/modules.js';
import { getSchema } from '../graphql/schema.js';
import type { SessionService } from '../graphql/system/session/service.js';
import { localPath, readSessionCookie, sendSignIn } from '../oauth/session/index.js';
import { sessionPrincipal } from '../oauth/session/graphql-credential.js';
import { prepareOperation, runOperation, type PreparedOperation } from '../rest/execute.js';
import { servedRoutes } from '../rest/served-route.js';

export interface DocumentDownloadDependencies {
  sessions: SessionService;
  services: Services;
}

/** The document routes of /v1, served under the same paths in /dashboard. */
const DOCUMENT_ROUTES: RestRoute[] = [invoicePdfRoute, creditNotePdfRoute];

interface Prepared {
  operation: PreparedOperation;
  scope: Scope | null;
}

/** Compiled once, on the first download: the schema is built by then. */
function preparedOnce(row: RestRoute): () => Promise<Prepared> {
  let prepared: Promise<Prepared> | undefined;
  return () =>
    (prepared ??= getSchema().then((schema) => ({
      operation: prepareOperation(schema, row.operation),
      scope: servedRoutes(schema, [row])[0]!.scope,
    })));
}

export function documentDownloads({ sessions, services }: DocumentDownloadDependencies): Router {
  const router = express.Router();
  for (const row of DOCUMENT_ROUTES) {
    const file = row.file!;
    const prepared = preparedOnce(row);
    router.get(row.path, async (req: Request, res: Response) => {
      const token = readSessionCookie(req);
      const principal = token ? await sessionPrincipal(sessions, token) : undefined;
      if (!principal) return sendSignIn(req, res, { continueTo: localPath(req.originalUrl) ?? '/dashboard' });
      const { operation, scope } = await prepared();
      if (scope && !hasScope(principal.scopes, scope)) throw missingScope(scope);
      const context = createContext(services, principal);
      const variables = row.variables({
        params: req.params as Record<string, string>,
        query: undefined,
        body: undefined,
      });
      const answer = await file.open(context, await runOperation(operation, variables, context));
      res.status(200);
      res.setHeader('Content-Type', answer.contentType);
      res.setHeader('Content-Disposition', `attachment; filename="${answer.filename.replace(/["\\\r\n]/g, '_')}"`);
      // A private document: kept by no cache, shared or the browser's.
      res.setHeader('Cache-Control', 'no-store');
      if (answer.size !== undefined) res.setHeader('Content-Length', String(answer.size));
      try {
        await pipeline(Readable.from(answer.body), res);
      } catch (error) {
        // A browser that went away is not a failure of ours.
        if ((error as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
      }
    });
  }
  return router;
}
