// The dashboard's one HTML document: the app's script and stylesheet, the CSRF
// token the app sends with every /graphql request, and a static "Loading" that
// the app replaces (no script runs inline: the CSP allows none).
import { html } from '../oauth/html.js';
import type { DashboardBundle } from './bundle.js';

export function dashboardPage({ bundle, csrf }: { bundle: DashboardBundle; csrf: string }): string {
  return (
    '<!doctype html>\n' +
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="csrf-token" content="${csrf}" />
        <title>Dashboard</title>
        <link rel="stylesheet" href="/dashboard/assets/${bundle.stylesheet}" />
        <script type="module" src="/dashboard/assets/${bundle.script}"></script>
      </head>
      <body>
        <div id="app"><p class="boot" role="status">Loading…</p></div>
      </body>
    </html>`.value
  );
}
