// The bodies of the token, revocation and introspection endpoints: form-encoded
// (as RFC 6749 clients send) or JSON (as the specification shows), read into
// one flat object of strings. A parameter given twice, or a JSON value that is
// not a string, is invalid_request.
import express, { type Request, type Response } from 'express';
import { OAuthProblem } from './errors.js';

export type OAuthParams = Record<string, string>;

const FORM = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function run(middleware: express.RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) =>
    middleware(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
  );
}

export function oauthBodyReader(limitBytes: number): (req: Request, res: Response) => Promise<OAuthParams> {
  const form = express.urlencoded({ extended: false, limit: limitBytes, parameterLimit: 50 });
  const json = express.json({ limit: limitBytes, strict: false });
  return async (req, res) => {
    const type = req.headers['content-type'] ?? '';
    if (FORM.test(type)) await run(form, req, res);
    else if (JSON_TYPE.test(type)) {
      try {
        await run(json, req, res);
      } catch (error) {
        if ((error as { type?: string }).type === 'entity.parse.failed') {
          throw new OAuthProblem('invalid_request', 'The request body is not valid JSON');
        }
        throw error;
      }
    } else {
      throw new OAuthProblem(
        'invalid_request',
        'Send the parameters as application/x-www-form-urlencoded or application/json',
      );
    }
    const body: unknown = req.body ?? {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new OAuthProblem('invalid_request', 'The request body must be a JSON object');
    }
    const params: OAuthParams = {};
    for (const [name, value] of Object.entries(body)) {
      if (Array.isArray(value)) throw new OAuthProblem('invalid_request', `${name} was given more than once`);
      if (typeof value !== 'string') throw new OAuthProblem('invalid_request', `${name} must be a string`);
      params[name] = value;
    }
    return params;
  };
}
