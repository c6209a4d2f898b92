// /dashboard: one HTML page for every dashboard path (the browser code routes),
// and its script and stylesheet. A browser without a session gets the sign-in
// form of the OAuth pages, the same sign-in, session and limits, continuing to
// the path it asked for. The page talks only to /graphql, with the session
// cookie and the CSRF token written into the page (src/http/graphql.ts checks it).
import express, { type Request, type Response, type Router } from 'express';
import { EVENT_TYPES } from '../events/catalogue.js';
import { TEST_EVENT_TYPE } from '../events/system-events.js';
import { declaredResources } from '../graphql/kit/declared.js';
import type { Services } from '../graphql/modules.js';
import { getSchema } from '../graphql/schema.js';
import type { SessionService } from '../graphql/system/session/service.js';
import { sessionPrincipal } from '../oauth/session/graphql-credential.js';
import { csrfToken, localPath, readSessionCookie, sendSignIn } from '../oauth/session/index.js';
import { madeOnce, serveHashedAssets } from '../http/hashed-assets.js';
import { dashboardBundle } from './bundle.js';
import { buildCatalogue, catalogueFor } from './catalogue.js';
import { documentDownloads } from './documents.js';
import { EXPORT_DOWNLOAD_PATH, exportDownload } from './export-download.js';
import { firstAnswer } from './first-answer.js';
import { dashboardPage } from './page.js';
import { pageViewer } from './page-viewer.js';
import { recordPathsMeta } from './record-paths.js';

/** Every event type the app may be shown: the catalogue's, and that of test deliveries. */
const EVENT_TYPE_NAMES = [...EVENT_TYPES, TEST_EVENT_TYPE];
const RECORD_PATHS = recordPathsMeta();

const searchOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');

export interface DashboardDependencies {
  sessions: SessionService;
  /** For the finance documents' and the exports' downloads (documents.ts, export-download.ts). */
  services: Services;
}

/** The catalogue of every declared resource, built once per process from the declarations and the schema. */
const dashboardCatalogue = madeOnce(async () => buildCatalogue(declaredResources(), await getSchema()));

/** Scripts, styles and requests from this origin only; no inline script or style, no framing. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function dashboardRouter({ sessions, services }: DashboardDependencies): Router {
  const router = express.Router();
  router.use(documentDownloads({ sessions, services }));

  router.get(
    '/assets/:name',
    serveHashedAssets(async () => (await dashboardBundle()).assets),
  );

  router.get(EXPORT_DOWNLOAD_PATH, exportDownload({ sessions, exports: services.exports }));

  router.get(/^\/(?!assets\/).*/, async (req: Request, res: Response) => {
    // The principal /graphql makes of this session: the page carries its viewer and catalogue.
    const principal = await sessionPrincipal(sessions, readSessionCookie(req));
    if (!principal) {
      return sendSignIn(req, res, { continueTo: localPath(req.originalUrl) ?? '/dashboard' });
    }
    const visible = dashboardCatalogue().then((all) => catalogueFor(all, declaredResources(), principal.scopes));
    // A list's address: its first page's answer too, so a full load draws it without asking.
    const answer = Promise.all([visible, getSchema()]).then(([catalogue, schema]) =>
      firstAnswer({ schema, services, principal, catalogue, path: req.path, search: searchOf(req.originalUrl) }),
    );
    const [bundle, catalogue, viewer, first] = await Promise.all([
      dashboardBundle(),
      visible,
      pageViewer(services, principal),
      // Never the page's failure: without it the browser asks /graphql, which says what went wrong.
      answer.catch(() => undefined),
    ]);
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(
      dashboardPage({
        bundle,
        csrf: csrfToken(req, res),
        eventTypes: EVENT_TYPE_NAMES,
        catalogue,
        recordPaths: RECORD_PATHS,
        viewer,
        firstAnswer: first,
      }),
    );
  });

  return router;
}
