// Beside the kit's rows (index.ts): a resource's template, and the upload of a file.
import { responseSchemaOf, selectionOf } from '../../kit/fields.js';
import { route, type FileAnswer, type RestRoute } from '../../kit/routes.js';
import { requirePrincipal } from '../../auth-checker.js';
import { IMPORT_CONTENT_TYPES } from '../../../imports/records.js';
import { createImportSchema, importTemplateSchema } from './input.js';
import { Import } from './type.js';

const tag = 'Imports';
const fields = selectionOf(Import);

const CSV_EXAMPLE =
  'email,firstName,lastName,company,phone,tags\r\n' +
  'ada@example.test,Ada,Lovelace,Analytical Engines,\'+44 20 7946 0000,"[""vip""]"\r\n' +
  'grace@example.test,Grace,Hopper,,,\r\n';
const NDJSON_EXAMPLE =
  '{"email":"ada@example.test","firstName":"Ada","lastName":"Lovelace","tags":["vip"]}\n' +
  '{"email":"grace@example.test","firstName":"Grace","lastName":"Hopper"}\n';

export const templateRoute: RestRoute = route({
  method: 'get',
  path: '/imports/template',
  tag,
  summary: "A resource's import template",
  operationId: 'getImportTemplate',
  description:
    'A CSV file of one header row, the API field names a create of the resource takes (in its input’s order), ' +
    'and a row of the resource’s example when it has one. Fill it in and POST it to /imports.',
  operation: `query ($resource: String!) { importTemplate(resource: $resource) }`,
  query: importTemplateSchema,
  variables: ({ query }) => ({ resource: (query as { resource: string }).resource }),
  status: 200,
  file: {
    contentTypes: ['text/csv; charset=utf-8'],
    open: async (_ctx, data): Promise<FileAnswer> => {
      const text = data as string;
      const bytes = Buffer.from(text, 'utf8');
      const body = (async function* () {
        yield bytes;
      })();
      return { contentType: 'text/csv; charset=utf-8', filename: 'import-template.csv', size: bytes.length, body };
    },
  },
});

export const uploadRoute: RestRoute = route({
  method: 'post',
  path: '/imports',
  tag,
  summary: 'Import a file of records',
  operationId: 'createImport',
  description:
    'Takes a file of one resource’s records as the body (text/csv with a header row of API field names, or ' +
    'application/x-ndjson, one JSON object per line; gzip, deflate or br encoded if you like), at most ' +
    'IMPORT_MAX_BYTES (default 50 MB), and the options as query parameters. Needs the resource’s write scope. ' +
    'Answers the import, queued; the worker validates each row with the resource’s own rules (the API’s 400 and ' +
    '409 messages) and, unless `dryRun`, writes the valid rows in batches, each with its usual events naming the ' +
    'caller as actor (`atomic`: all or none). Follow it with GET /imports/{id}. Raises `import.completed` when done. ' +
    'In a CSV an empty cell leaves the field out, lists and objects are JSON text, and a cell an export ' +
    "neutralised ('=…, '+…) is read as it was; the REST object's read-only fields (id, createdAt, …) and an " +
    'export’s names (contactName) are ignored, so an exported file imports as it is.',
  operation: `query ($id: ID!) { import(id: $id) { ${fields} } }`,
  query: createImportSchema,
  variables: ({ params }) => ({ id: params.id }),
  status: 202,
  forbidden: 'Credential lacks the resource’s write scope',
  response: responseSchemaOf(Import),
  upload: {
    contentTypes: Object.values(IMPORT_CONTENT_TYPES),
    examples: { [IMPORT_CONTENT_TYPES.csv]: CSV_EXAMPLE, [IMPORT_CONTENT_TYPES.ndjson]: NDJSON_EXAMPLE },
    maxBytes: (ctx) => ctx.services.imports.maxBytes,
    receive: (ctx, query, upload) => ctx.services.imports.receive(requirePrincipal(ctx), query, upload),
  },
});
