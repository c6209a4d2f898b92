// The API reference's one HTML document: Redoc's bundle and the small script
// that starts it, both files served by /docs/assets (no inline script: the CSP
// allows none), and a message for a browser without JavaScript.
import { html } from '../oauth/html.js';

export function docsPage({ bundle, init }: { bundle: string; init: string }): string {
  return (
    '<!doctype html>\n' +
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>API reference</title>
        <link rel="icon" href="data:," />
      </head>
      <body>
        <div id="redoc">
          <noscript>
            The reference needs JavaScript. The document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.
          </noscript>
        </div>
        <script src="/docs/assets/${bundle}"></script>
        <script src="/docs/assets/${init}"></script>
      </body>
    </html>`.value
  );
}
