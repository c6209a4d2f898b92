// A list's next page as an RFC 8288 `Link: <…>; rel="next"` header: the same
// request with `after` set to the page's `pagination.next` (and no `page`), so
// a client that follows links pages by cursor without building URLs.

/** The header for a list answer with a next page; undefined for anything else. */
export function nextPageLink(originalUrl: string, body: unknown): string | undefined {
  const next = (body as { pagination?: { next?: unknown } } | null)?.pagination?.next;
  if (typeof next !== 'string') return undefined;
  const url = new URL(originalUrl, 'http://origin.invalid');
  url.searchParams.delete('page');
  url.searchParams.set('after', next);
  return `<${url.pathname}${url.search}>; rel="next"`;
}
