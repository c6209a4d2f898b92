// Where a record is shown, from its id alone: the page's record-paths meta tag
// maps each id prefix to a path (src/dashboard/record-paths.ts), so an event or
// a delivery links to what it is about (`con_…` → /crm/contacts/con_…).
const paths = new Map(
  (document.querySelector<HTMLMetaElement>('meta[name="record-paths"]')?.content ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]),
);

/** The dashboard path of the record with this id, or undefined for a kind without a page. */
export function recordPath(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const base = paths.get(id.slice(0, id.indexOf('_')));
  return base ? `${base}/${id}` : undefined;
}
