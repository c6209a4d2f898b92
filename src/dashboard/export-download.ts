// An export's file for the signed-in browser: the dashboard's Export links
// here once the file is written. /v1's download takes a Bearer credential
// only, and a link cannot carry the X-CSRF-Token header /graphql asks of a
// session, so this GET takes the session cookie alone. That is safe for a
// read: another site may make the browser fetch it but can never read the
// answer (no CORS), and a request another site starts (Sec-Fetch-Site:
// cross-site) is refused anyway. Who may download what is ExportService's, as
// for /v1 (the export's scopes; 404 for another organization's or another's).
// Without a session, the sign-in form continues to the file.
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import { DomainError } from '../errors.js';
import type { ExportService } from '../graphql/system/export/service.js';
import type { SessionService } from '../graphql/system/session/service.js';
import { localPath, readSessionCookie, sendSignIn } from '../oauth/session/index.js';
import { sessionPrincipal } from '../oauth/session/graphql-credential.js';

/** The dashboard path of an export's file (the client links to it: client/records/export.tsx). */
export const EXPORT_DOWNLOAD_PATH = '/exports/:id/download';

export function exportDownload({ sessions, exports }: { sessions: SessionService; exports: ExportService }) {
  return async (req: Request, res: Response): Promise<void> => {
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      throw new DomainError('FORBIDDEN', 'An export is downloaded from the dashboard, not from another site');
    }
    const token = readSessionCookie(req);
    const principal = token ? await sessionPrincipal(sessions, token) : undefined;
    // As the documents' downloads (documents.ts): signing in continues to the file.
    if (!principal) return sendSignIn(req, res, { continueTo: localPath(req.originalUrl) ?? '/dashboard' });
    const file = await exports.download(principal, String(req.params.id));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`);
    if (file.size !== undefined) res.setHeader('Content-Length', String(file.size));
    try {
      await pipeline(Readable.from(file.body), res);
    } catch (error) {
      // A browser that went away (a cancelled download) is not a failure of ours.
      if ((error as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
    }
  };
}
