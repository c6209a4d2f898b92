// The API reference's one HTML document: Redoc's bundle and the small script
// that starts it, both files served by /docs/assets (no inline script: the CSP
// allows none), and a message for a browser without JavaScript.
import { html, htmlDocument } from '../oauth/html.js';

export function docsPage({ bundle, init }: { bundle: string; init: string }): string {
  return htmlDocument({
    title: 'API reference',
    head: html`<link rel="icon" href="data:," />`,
    body: html`<div id="redoc">
        <noscript>
          The reference needs JavaScript. The document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.
        </noscript>
      </div>
      <script src="/docs/assets/${bundle}"></script>
      <script src="/docs/assets/${init}"></script>`,
  });
}
