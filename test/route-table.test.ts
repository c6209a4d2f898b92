// The /v1 direct lane (src/rest/direct-lane.ts) routes by a table instead of
// Express's layer walk: for every route row and paths that probe the matching
// rules (case, trailing slash, encoded and malformed parameters, empty
// segments, unusual characters), the table finds the route Express finds, with
// the same parameters, or leaves the request to Express.
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/graphql/modules.js';
import { RouteTable } from '../src/rest/route-table.js';

const rows = [{ method: 'get', path: '/openapi.json' }, ...ROUTES.map(({ method, path }) => ({ method, path }))];
const table = new RouteTable(rows.map((row, index) => ({ ...row, value: index })));

let base: string;
let close: () => void;

beforeAll(async () => {
  // The routes as the REST router registers them, each answering which it is.
  const router = express.Router();
  rows.forEach(({ method, path }, index) => {
    router[method as 'get'](path, (req, res) => void res.json({ index, params: { ...req.params } }));
  });
  router.use((_req, res) => void res.json({ index: null }));
  const app = express();
  app.use('/v1', router);
  app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(400).json({ index: 'error' });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** Each row's path with its parameters filled, then variations Express reads its own way. */
function probes(path: string): string[] {
  const filled = path.replace(/:[^/]+/g, 'abc');
  const encoded = path.replace(/:[^/]+/g, 'a%2Fb%20c');
  return [
    filled,
    filled.toUpperCase(),
    `${filled}/`,
    `${filled}//`,
    encoded,
    path.replace(/:[^/]+/g, '%E0%A4%A'),
    path.replace(/:[^/]+/g, ''),
    path.replace(/:[^/]+/g, "x;y=1,z!$&'()*+@:"),
    `${filled}/extra`,
    filled.replace(/\/[^/]+$/, ''),
    `${filled}?page=2&x=/y`,
    `${filled}%20`,
  ];
}

const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'];

describe('the /v1 route table', () => {
  it('finds the route Express finds, with the same parameters, or leaves the request to Express', async () => {
    let found = 0;
    for (const { path } of rows) {
      for (const probe of probes(path)) {
        for (const method of methods) {
          const pathname = probe.split('?')[0]!;
          const mine = table.find(method, pathname);
          if (!mine) continue;
          found++;
          const res = await fetch(`${base}/v1${probe}`, { method });
          const theirs = (await res.json()) as { index: number | null | 'error'; params?: Record<string, string> };
          expect({ method, probe, index: theirs.index, params: theirs.params }).toEqual({
            method,
            probe,
            index: mine.value,
            params: { ...mine.params },
          });
        }
      }
    }
    // The plain cases are the table's: every row at least once.
    expect(found).toBeGreaterThanOrEqual(rows.length);
  });

  it('serves every row by its plain path and leaves HEAD and malformed parameters to Express', () => {
    rows.forEach(({ method, path }, index) => {
      expect(table.find(method.toUpperCase(), path.replace(/:[^/]+/g, 'abc'))?.value).toBe(index);
    });
    const withParam = rows.find(({ path }) => path.includes(':'))!;
    expect(table.find('HEAD', withParam.path.replace(/:[^/]+/g, 'abc'))).toBeUndefined();
    expect(table.find(withParam.method.toUpperCase(), withParam.path.replace(/:[^/]+/g, '%E0%A4%A'))).toBeUndefined();
  });
});
