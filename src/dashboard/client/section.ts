// What a part of the dashboard contributes: its links in the navigation and
// the pages behind its paths, each shown only to a viewer with the scope it needs.
import type { ComponentType } from 'preact';

export interface Viewer {
  user: { id: string; email: string; name: string | null; role: string } | null;
  organization: { id: string; name: string };
  scopes: string[];
  credentialType: string;
}

/** Whether the viewer holds a scope (admin holds every one). */
export function can(viewer: Viewer, scope: string | undefined): boolean {
  return !scope || viewer.scopes.includes('admin') || viewer.scopes.includes(scope);
}

export interface PageProps {
  viewer: Viewer;
  /** The path's parameters (`:id`). */
  params: Record<string, string>;
}

export interface Route {
  /** A path under /dashboard, with `:name` parameters. */
  path: string;
  page: ComponentType<PageProps>;
  /** The scope the page needs; the server refuses without it anyway. */
  needs?: string;
}

export interface Section {
  title: string;
  links: { href: string; label: string; needs?: string }[];
  routes: Route[];
}
