// A small router for the dashboard's paths (/dashboard/…): the browser's
// history API, links that move without reloading, and the current path as state.
import { useEffect, useState } from 'preact/hooks';
import { discardFirstAnswer } from './first-answer.js';

export const BASE = '/dashboard';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => {
  discardFirstAnswer();
  listeners.forEach((listener) => listener());
});

/** Goes to a dashboard path (`/contacts?q=x`), adding it to the history. */
export function navigate(path: string, { replace = false } = {}): void {
  discardFirstAnswer();
  const url = BASE + path;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  listeners.forEach((listener) => listener());
  window.scrollTo(0, 0);
}

export interface Location {
  /** The path under /dashboard, `/` for the dashboard's home. */
  path: string;
  query: URLSearchParams;
}

function current(): Location {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(location.search) };
}

export function useLocation(): Location {
  const [value, setValue] = useState(current);
  useEffect(() => {
    const update = () => setValue(current());
    listeners.add(update);
    // A navigation before this subscribed (a child's effect runs first, e.g. a redirect's) is not missed.
    const now = current();
    if (now.path !== value.path || now.query.toString() !== value.query.toString()) update();
    return () => void listeners.delete(update);
  }, []);
  return value;
}

/** Changes the query of the current path (filters, page, sort) without a new history entry. */
export function setQuery(changes: Record<string, string | number | undefined>): void {
  const { path, query } = current();
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === '') query.delete(name);
    else query.set(name, String(value));
  }
  const search = query.toString();
  navigate(search ? `${path}?${search}` : path, { replace: true });
}

/** Matches `/webhooks/:id` against a path: the parameters, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const regex = new RegExp(
    '^' +
      pattern.replace(/:([a-zA-Z]+)/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      }) +
      '/?$',
  );
  const found = regex.exec(path);
  if (!found) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]));
}
