// A JSON answer written on Node's response, as Express's res.json writes it
// (UTF-8 JSON, its length, 304 to a GET or HEAD whose validators match, no body
// to HEAD) without Express's response object (exchange.ts).
import type { ServerResponse } from 'node:http';
import fresh from 'fresh';

/** Whether a conditional GET or HEAD can be answered 304, as Express's req.fresh decides. */
function isFresh(res: ServerResponse, status: number): boolean {
  const req = res.req;
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const { headers } = req;
  if (!headers['if-none-match'] && !headers['if-modified-since']) return false;
  if ((status < 200 || status >= 300) && status !== 304) return false;
  return fresh(headers, { etag: res.getHeader('ETag'), 'last-modified': res.getHeader('Last-Modified') });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (isFresh(res, status)) {
    res.statusCode = 304;
    for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) res.removeHeader(name);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  // Node leaves the body out of an answer to HEAD itself.
  res.end(text);
}
