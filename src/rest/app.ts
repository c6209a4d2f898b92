// The REST facade under /v1: authenticate, count against the rate limit, then
// for each route row check its scope, validate the request with the service's
// own schema, run its GraphQL operation in-process and shape the answer.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { credentialHolder, type Principal } from '../auth/principal.js';
import { hasScope } from '../auth/scopes.js';
import type { CredentialResolver } from '../auth/credentials.js';
import { DomainError } from '../errors.js';
import { missingScope } from '../graphql/auth-checker.js';
import { createContext } from '../graphql/context.js';
import { refuseChangedFixed, type FixedFields } from '../graphql/kit/fixed-fields.js';
import type { FileRoute, UploadRoute } from '../graphql/kit/routes.js';
import { ROUTES, type Services } from '../graphql/modules.js';
import { authenticate, bearer, type AuthLocals } from '../http/authenticate.js';
import { jsonBodyReader, uploadedBody } from '../http/body.js';
import { sendError, toDomainError } from '../http/errors.js';
import type { ErrorHandler, Handler, HttpRequest, HttpResponse } from '../http/exchange.js';
import { sendJson } from '../http/send-json.js';
import {
  DRY_RUN,
  PREFERENCE_APPLIED_HEADER,
  WOULD_RAISE_HEADER,
  prefersDryRun,
  type DryRunner,
} from '../http/prefer.js';
import {
  IDEMPOTENCY_HEADER,
  type IdempotencyStore,
  answerOnce,
  parseIdempotencyKey,
  type Answer,
} from '../http/idempotency.js';
import type { SharedRateLimiter } from '../http/rate-limit.js';
import { parseInput, parseQuery } from '../validation.js';
import type { OutageLog } from '../outage-log.js';
import { checkOperation, prepareOperation, runOperation, type PreparedOperation } from './execute.js';
import { nextPageLink } from './next-page-link.js';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi.js';
import type { DirectRoute } from './direct-lane.js';
import { RouteTable, type TableRow } from './route-table.js';
import { servedRoutes, type ServedRoute } from './served-route.js';

export interface RestDependencies {
  /** Where 503s are counted, and logged once per episode. */
  outages: OutageLog;
  schema: GraphQLSchema;
  services: Services;
  credentials: CredentialResolver;
  rateLimiter: SharedRateLimiter;
  idempotency: IdempotencyStore;
  logger: Logger;
  bodyLimitBytes: number;
  publicUrl: string;
  /** Runs a write as a dry run (`Prefer: dry-run`): its answer, nothing kept. */
  dryRun: DryRunner;
}

function withoutFields(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const copy = { ...body };
  for (const field of fields) delete copy[field];
  return copy;
}

/**
 * The body validated, and apart the read-only fields it gave (`fixed`): a
 * create's are checked here against the new record, an update's by the service
 * against the record (in its transaction). Each passes only at the record's value.
 */
function parseBody(row: ServedRoute, body: unknown): { body?: unknown; fixed?: FixedFields } {
  if (!row.body) return {};
  const value = body === undefined ? {} : body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DomainError('VALIDATION_ERROR', 'The request body must be a JSON object');
  }
  const object = value as Record<string, unknown>;
  const given = row.readOnly.filter((field) => Object.hasOwn(object, field));
  if (!given.length) return { body: parseInput(row.body, object) };
  const fixed = {
    values: Object.fromEntries(given.map((field) => [field, object[field]])),
    messages: row.fixedMessages,
  };
  if (row.role === 'create') refuseChangedFixed(row.newRecord ?? {}, fixed);
  return { body: parseInput(row.body, withoutFields(object, given)), ...(row.role === 'update' && { fixed }) };
}

export interface Rest {
  router: Router;
  /** The router's routes and, for each REST row, what runs after the app's middleware (direct-lane.ts). */
  routes: RouteTable<DirectRoute>;
}

export function createRestRouter(deps: RestDependencies): Rest {
  const router = express.Router();
  const readJsonBody = jsonBodyReader(deps.bodyLimitBytes);
  const routes = servedRoutes(deps.schema, ROUTES);
  // In the order the router tries them; the OpenAPI document stays Express's (no authentication).
  const tableRows: TableRow<DirectRoute>[] = [{ method: 'get', path: OPENAPI_PATH, value: undefined }];

  // Built when first asked for: a few MB that most processes never serve.
  let openApi: ReturnType<typeof buildOpenApiDocument> | undefined;
  router.get(OPENAPI_PATH, (_req, res) => void res.json((openApi ??= buildOpenApiDocument(routes, deps.publicUrl))));

  const authenticated = authenticate(bearer(deps.credentials), deps.rateLimiter);
  router.use(authenticated);

  const methodsByPath = new Map<string, string[]>();
  for (const row of routes) {
    // Checked now (a wrong operation fails the start); compiled by graphql-jit on the route's first
    // request: about 20 kB of generated code each, and a process serves few of its hundreds of routes.
    checkOperation(deps.schema, row.operation);
    let prepared: PreparedOperation | undefined;
    const operation = () => (prepared ??= prepareOperation(deps.schema, row.operation));
    const hasBody = row.body !== undefined;
    methodsByPath.set(row.path, [...(methodsByPath.get(row.path) ?? []), row.method.toUpperCase()]);

    /** Validates the request, runs the operation and shapes the answer; throws DomainError. */
    const answer = async (req: HttpRequest, principal: Principal): Promise<Answer> => {
      const query = row.query ? parseQuery(row.query, req.query) : undefined;
      const { body, fixed } = parseBody(row, req.body);
      const variables = row.variables({ params: req.params as Record<string, string>, query, body });
      const context = createContext(deps.services, principal);
      // Validated here with the service's own schema: the kit's services do not validate it again.
      if (body !== undefined || query !== undefined) context.restInput = { value: body ?? query, fixed };
      const data = await runOperation(operation(), variables, context);
      return { status: row.status, body: row.status === 204 ? undefined : data };
    };

    /** A download: the operation answers who may have it (scope, tenancy, 404), then the file is streamed. */
    const sendFile = async (req: HttpRequest, res: HttpResponse, principal: Principal, file: FileRoute) => {
      const variables = row.variables({
        params: req.params as Record<string, string>,
        query: row.query ? parseQuery(row.query, req.query) : undefined,
        body: undefined,
      });
      const context = createContext(deps.services, principal);
      const answer = await file.open(context, await runOperation(operation(), variables, context));
      res.statusCode = row.status;
      res.setHeader('Content-Type', answer.contentType);
      res.setHeader('Content-Disposition', `attachment; filename="${answer.filename.replace(/["\\\r\n]/g, '_')}"`);
      if (answer.size !== undefined) res.setHeader('Content-Length', String(answer.size));
      try {
        await pipeline(Readable.from(answer.body), res);
      } catch (error) {
        // A client that went away is not a failure of ours.
        if ((error as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
      }
      deps.outages.passed();
    };

    /** The write itself, once per Idempotency-Key on a POST. */
    const answerForReal = async (req: HttpRequest, res: HttpResponse, principal: Principal): Promise<Answer> => {
      const idempotencyKey = row.method === 'post' ? parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER]) : undefined;
      if (!idempotencyKey) return answer(req, principal);
      const scope = {
        organizationId: principal.organizationId,
        credential: credentialHolder(principal),
        key: idempotencyKey,
      };
      return answerOnce(deps.idempotency, { scope, req, res }, () => answer(req, principal));
    };

    /**
     * A dry run answers what the write would and keeps nothing (src/db/dry-run.ts). It
     * neither replays nor stores an Idempotency-Key's answer: it is not the write the key names.
     */
    const answerDryRun = async (req: HttpRequest, res: HttpResponse, principal: Principal): Promise<Answer> => {
      res.setHeader(PREFERENCE_APPLIED_HEADER, DRY_RUN);
      const { value, raised } = await deps.dryRun(principal.organizationId, () => answer(req, principal));
      if (raised.length) res.setHeader(WOULD_RAISE_HEADER, raised.join(', '));
      return value;
    };

    /** An upload: the file is received (checked, stored), then the operation answers what it made. */
    const receiveFile = async (req: HttpRequest, res: HttpResponse, principal: Principal, upload: UploadRoute) => {
      const context = createContext(deps.services, principal);
      try {
        const query = row.query ? parseQuery(row.query, req.query) : undefined;
        const { id } = await upload.receive(context, query, {
          contentType: req.headers['content-type'],
          body: uploadedBody(req, upload.maxBytes(context)),
        });
        const variables = row.variables({ params: { id }, query, body: undefined });
        sendJson(res, row.status, await runOperation(operation(), variables, context));
        deps.outages.passed();
      } catch (error) {
        // A body left unread cannot be skipped on this connection.
        if (!req.complete) res.setHeader('Connection', 'close');
        throw error;
      }
    };

    const handler: Handler = async (req, res) => {
      const principal = (res.locals as AuthLocals).principal!;
      if (row.scope && !hasScope(principal.scopes, row.scope)) throw missingScope(row.scope);
      if (row.file) return sendFile(req, res, principal, row.file);
      if (row.upload) {
        // The upload is stored before its operation runs: an import previews itself with its own dryRun.
        if (prefersDryRun(req.headers)) {
          res.setHeader('Connection', 'close');
          throw new DomainError('VALIDATION_ERROR', 'Prefer: dry-run is not taken by an upload: use its dryRun option');
        }
        return receiveFile(req, res, principal, row.upload);
      }
      if (hasBody) await readJsonBody(req, res);
      const dry = row.method !== 'get' && prefersDryRun(req.headers);
      const result = dry ? await answerDryRun(req, res, principal) : await answerForReal(req, res, principal);
      if (result.body === undefined) {
        res.statusCode = result.status;
        res.end();
      } else {
        const next = row.method === 'get' ? nextPageLink(req.originalUrl, result.body) : undefined;
        if (next) res.setHeader('Link', next);
        sendJson(res, result.status, result.body);
      }
      deps.outages.passed();
    };
    router[row.method](row.path, handler);
    tableRows.push({ method: row.method, path: row.path, value: { mounted: [authenticated], route: [handler] } });
  }

  router.use((req: Request, res: Response) => {
    const allowed = [...methodsByPath].find(([path]) => matches(path, req.path))?.[1];
    if (allowed) {
      res.setHeader('Allow', allowed.join(', '));
      return sendError(
        res,
        new DomainError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allowed.join(', ')}`),
      );
    }
    sendError(res, new DomainError('NOT_FOUND', `No route for ${req.method} ${req.baseUrl}${req.path}`));
  });

  router.use(restErrorHandler(deps.logger, deps.outages));
  return { router, routes: new RouteTable(tableRows) };
}

function matches(pattern: string, path: string): boolean {
  const regex = new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}/?$`);
  return regex.test(path);
}

/**
 * Internal errors are logged each; a 503 (the database away or busy) once per episode (OutageLog).
 * Four parameters: that is how Express tells an error handler from middleware.
 */
export function restErrorHandler(logger: Logger, outages: OutageLog): ErrorHandler {
  return (error, req, res, _next) => {
    const domain = toDomainError(error);
    if (domain.code === 'INTERNAL_ERROR') {
      logger.error({ err: domain.cause ?? error, method: req.method, url: req.originalUrl }, 'request failed');
    } else if (domain.code === 'SERVICE_UNAVAILABLE') {
      const cause = domain.cause instanceof Error ? domain.cause.message : undefined;
      outages.failed(domain.message, { cause, method: req.method, url: req.originalUrl });
    }
    if (res.headersSent) return res.end();
    sendError(res, domain);
  };
}
