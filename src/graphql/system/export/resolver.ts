// Thin: any credential may ask; the service checks the resource's read scope and
// shows only the exports whose scopes the caller holds (visibility.ts). The work is
// in ExportService and the worker's run_export task.
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { inputType, optional, required } from '../../kit/inputs.js';
import { Requires } from '../../kit/scope.js';
import { ScopeEnum } from '../../kit/wire-enums.js';
import { fileJobResolver } from '../file-job/queries.js';
import { createExportSchema, exportList } from './input.js';
import { Export } from './type.js';

export const ExportQueries = fileJobResolver({
  type: Export,
  list: exportList,
  names: { one: 'export', many: 'exports' },
  listDescription: 'Exports of the organization whose scopes the caller holds, oldest first.',
});

// The GraphQL input of createExportSchema's fields (enums ExportFormat, ExportAmounts: the type's).
const fields = createExportSchema.shape;
const CreateExportInput = inputType(
  'Export',
  'CreateExportInput',
  {
    resource: required(fields.resource, {
      description: 'The last segment of the resource REST path (contacts, payroll-runs) or events.',
    }),
    format: required(fields.format),
    amounts: optional(fields.amounts, {
      description: "Money in minor units (default) or in major units with the currency's decimals (107.10).",
    }),
    bom: optional(fields.bom, { description: 'csv only: a UTF-8 byte order mark first, for Excel.' }),
    filters: optional(fields.filters, {
      graphql: () => GraphQLJSONObject,
      description: "The resource's list filters.",
    }),
    scopes: optional(fields.scopes, {
      graphql: () => [ScopeEnum],
      description:
        'What the file holds: a row as a holder of these scopes reads it; only callers holding all of them see the ' +
        "export. Default: an admin's scopes; anyone else's that the file depends on.",
    }),
  },
  (field) => !field.required,
  'What to export.',
);

@Resolver(() => Export)
export class ExportResolver {
  @Requires()
  @Mutation(() => Export, {
    description:
      "Queues an export (needs the resource's read scope; events need admin); the worker writes the file " +
      '(download it over REST).',
  })
  createExport(@Arg('input', () => CreateExportInput) input: object, @Ctx() ctx: Context): Promise<Export> {
    return ctx.services.exports.create(requirePrincipal(ctx), givenArgs({ ...input }));
  }
}
