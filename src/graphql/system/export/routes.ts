// The one REST row of exports the kit does not serve: the download of the file.
import { requirePrincipal } from '../../auth-checker.js';
import { route, type RestRoute } from '../../kit/routes.js';
import { CONTENT_TYPES } from './format.js';

export const downloadRoute: RestRoute = route({
  method: 'get',
  path: '/exports/:id/download',
  tag: 'Exports',
  summary: "Download an export's file",
  operationId: 'downloadExport',
  description:
    'The file, streamed: text/csv (RFC 4180, a header row, a UTF-8 byte order mark first when asked) or ' +
    'application/x-ndjson (one row object per line), with a Content-Disposition naming it.',
  operation: `query ($id: ID!) { export(id: $id) { id } }`,
  variables: ({ params }) => ({ id: params.id }),
  status: 200,
  conflict: 'The export is not completed yet (or failed)',
  file: {
    contentTypes: Object.values(CONTENT_TYPES),
    open: (ctx, data) => ctx.services.exports.download(requirePrincipal(ctx), (data as { id: string }).id),
  },
});
