// The dashboard's one HTML document: the app's script and stylesheet, the CSRF
// token the app sends with every /graphql request, and a static "Loading" that
// the app replaces (no script runs inline: the CSP allows none).
import { html, htmlDocument } from '../oauth/html.js';
import type { DashboardBundle } from './bundle.js';

export function dashboardPage({ bundle, csrf }: { bundle: DashboardBundle; csrf: string }): string {
  return htmlDocument({
    title: 'Dashboard',
    head: html`<meta name="csrf-token" content="${csrf}" />
      <link rel="stylesheet" href="/dashboard/assets/${bundle.stylesheet}" />
      <script type="module" src="/dashboard/assets/${bundle.script}"></script>`,
    body: html`<div id="app"><p class="boot" role="status">Loading…</p></div>`,
  });
}
