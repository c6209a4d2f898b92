// The dashboard's one HTML document: the app's script and stylesheet, the CSRF
// token the app sends with every /graphql request, who the viewer is
// (page-viewer.ts: the frame is drawn, and the page's own request starts,
// without first asking /graphql), the event types (so the app
// reads GraphQL's names of them back as the API writes them, without bundling
// the server's declarations), where each kind of record is shown (by id
// prefix), the catalogue of the resources the viewer may read (catalogue.ts: a
// JSON data block, which no browser runs, so the CSP that forbids inline
// scripts allows it), on a list's address the answer to its first page
// (first-answer.ts), and a static "Loading" that the app replaces (no script
// runs inline: the CSP allows none).
import { html, htmlDocument, SafeHtml } from '../oauth/html.js';
import type { DashboardBundle } from './bundle.js';
import type { Catalogue } from './catalogue-shape.js';
import type { FirstAnswer } from './first-answer.js';
import type { PageViewer } from './page-viewer.js';

/** JSON that cannot end its script element (`</script>`) or open a comment: <, > and & as escapes. */
export function jsonInScript(value: unknown): SafeHtml {
  return new SafeHtml(
    JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

export function dashboardPage({
  bundle,
  csrf,
  eventTypes,
  catalogue,
  recordPaths,
  viewer,
  firstAnswer,
}: {
  bundle: DashboardBundle;
  csrf: string;
  eventTypes: readonly string[];
  catalogue: Catalogue;
  /** Where a record is shown, by id prefix (record-paths.ts). */
  recordPaths: string;
  viewer: PageViewer;
  firstAnswer?: FirstAnswer;
}): string {
  return htmlDocument({
    title: 'Dashboard',
    head: html`<meta name="csrf-token" content="${csrf}" />
      <meta name="event-types" content="${eventTypes.join(' ')}" />
      <meta name="record-paths" content="${recordPaths}" />
      <link rel="stylesheet" href="/dashboard/assets/${bundle.stylesheet}" />
      <script type="application/json" id="viewer">
        ${jsonInScript(viewer)}
      </script>
      <script type="application/json" id="catalogue">
        ${jsonInScript(catalogue)}
      </script>
      ${
        firstAnswer
          ? html`<script type="application/json" id="first-answer">
              ${jsonInScript(firstAnswer)}
            </script>`
          : ''
      }
      <script type="module" src="/dashboard/assets/${bundle.script}"></script>`,
    body: html`<div id="app"><p class="boot" role="status">Loading…</p></div>`,
  });
}
