// The /v1 route rows as a table looked up by method and path, matching exactly
// as Express 5's router matches them (path-to-regexp 8 via router 2): segments
// compared without regard to case, `:name` standing for one non-empty segment
// (decoded with decodeURIComponent), one trailing slash allowed, the first row
// registered winning. What this table cannot decide the same way (a HEAD, a
// parameter that does not decode, a path parseurl would take apart otherwise)
// it leaves alone: `find` answers undefined and Express routes the request.
export interface TableRow<T> {
  method: string;
  /** An Express route path of literal segments and `:name` parameters. */
  path: string;
  value: T;
}

export interface Found<T> {
  value: T;
  /** The route pattern, as Express gives it in req.route.path. */
  path: string;
  params: Record<string, string>;
}

interface CompiledRow<T> {
  /** Per segment: its literal, lower-cased, or null for a parameter. */
  literals: (string | null)[];
  names: (string | undefined)[];
  path: string;
  value: T;
}

/**
 * The characters a pathname may hold here: parseurl reads such a path as it is,
 * and none of them is changed by lower-casing apart from ASCII letters.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/]*$/;

export class RouteTable<T> {
  /** By method, then by number of segments: the rows in the order they were given. */
  private readonly rows = new Map<string, Map<number, CompiledRow<T>[]>>();

  constructor(rows: readonly TableRow<T>[]) {
    for (const { method, path, value } of rows) {
      if (!/^(\/(:[A-Za-z_$][\w$]*|[\w\-.~]+))+$/.test(path)) {
        throw new Error(`route path ${path} is not literal segments and :parameters`);
      }
      const segments = path.slice(1).split('/');
      const compiled: CompiledRow<T> = {
        literals: segments.map((segment) => (segment.startsWith(':') ? null : segment.toLowerCase())),
        names: segments.map((segment) => (segment.startsWith(':') ? segment.slice(1) : undefined)),
        path,
        value,
      };
      const byLength = this.rows.get(method.toUpperCase()) ?? new Map<number, CompiledRow<T>[]>();
      byLength.set(segments.length, [...(byLength.get(segments.length) ?? []), compiled]);
      this.rows.set(method.toUpperCase(), byLength);
    }
  }

  /** The row Express would route `method pathname` to, or undefined when Express should decide. */
  find(method: string, pathname: string): Found<T> | undefined {
    const byLength = this.rows.get(method);
    if (!byLength || !PLAIN_PATH.test(pathname)) return undefined;
    const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
    const segments = trimmed.slice(1).split('/');
    const candidates = byLength.get(segments.length);
    if (!candidates) return undefined;
    for (const row of candidates) {
      if (
        !row.literals.every((literal, i) =>
          literal === null ? segments[i] !== '' : literal === segments[i]!.toLowerCase(),
        )
      ) {
        continue;
      }
      const params = Object.create(null) as Record<string, string>;
      for (let i = 0; i < segments.length; i++) {
        const name = row.names[i];
        if (name === undefined) continue;
        try {
          params[name] = decodeURIComponent(segments[i]!);
        } catch {
          return undefined;
        }
      }
      return { value: row.value, path: row.path, params };
    }
    return undefined;
  }
}
