// The dashboard's one HTML document: the app's script and stylesheet, the CSRF
// token the app sends with every /graphql request, the event types (so the app
// reads GraphQL's names of them back as the API writes them, without bundling
// the server's declarations), where each kind of record is shown, and a static
// "Loading" that the app replaces (no script runs inline: the CSP allows none).
import { html, htmlDocument } from '../oauth/html.js';
import type { DashboardBundle } from './bundle.js';

export function dashboardPage({
  bundle,
  csrf,
  eventTypes,
  recordPaths,
}: {
  bundle: DashboardBundle;
  csrf: string;
  eventTypes: readonly string[];
  /** Where a record is shown, by id prefix (record-paths.ts). */
  recordPaths: string;
}): string {
  return htmlDocument({
    title: 'Dashboard',
    head: html`<meta name="csrf-token" content="${csrf}" />
      <meta name="event-types" content="${eventTypes.join(' ')}" />
      <meta name="record-paths" content="${recordPaths}" />
      <link rel="stylesheet" href="/dashboard/assets/${bundle.stylesheet}" />
      <script type="module" src="/dashboard/assets/${bundle.script}"></script>`,
    body: html`<div id="app"><p class="boot" role="status">Loading…</p></div>`,
  });
}
