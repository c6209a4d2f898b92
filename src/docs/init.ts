// The script that starts Redoc on /docs, served as a file (the CSP allows no
// inline script). System fonts: Redoc's defaults name Montserrat and Roboto,
// which nothing here fetches, and the page must fetch nothing from elsewhere.
export const INIT_SCRIPT = `'use strict';
(function () {
  var system = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
  window.Redoc.init(
    '/v1/openapi.json',
    {
      expandResponses: '200,201',
      hideDownloadButton: false,
      theme: {
        typography: {
          fontFamily: system,
          headings: { fontFamily: system },
          code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        },
      },
    },
    document.getElementById('redoc'),
  );
})();
`;
