// Thin: any credential may ask; the service checks the resource's read scope and
// shows only the exports whose scopes the caller holds (visibility.ts). The work is
// in ExportService and the worker's run_export task.
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, InputType, Mutation, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { graphqlEnum } from '../../kit/enums.js';
import { Requires } from '../../kit/scope.js';
import { ScopeEnum } from '../../kit/wire-enums.js';
import { fileJobResolver } from '../file-job/queries.js';
import { EXPORT_AMOUNTS } from './amounts.js';
import { exportList } from './input.js';
import { Export, EXPORT_FORMATS } from './type.js';

export const ExportQueries = fileJobResolver({
  type: Export,
  list: exportList,
  names: { one: 'export', many: 'exports' },
  listDescription: 'Exports of the organization whose scopes the caller holds, oldest first.',
});

const ExportFormatInput = graphqlEnum('ExportFormat', EXPORT_FORMATS, {
  description: 'csv, or json (newline-delimited).',
});
const ExportAmountsInput = graphqlEnum('ExportAmounts', EXPORT_AMOUNTS, {
  description: "minor: integer minor units; decimal: major units with the currency's decimals.",
});

@InputType({ description: 'What to export.' })
class CreateExportInput {
  @Field(() => String, {
    description: 'The last segment of the resource REST path (contacts, payroll-runs) or events.',
  })
  resource!: string;

  @Field(() => ExportFormatInput)
  format!: string;

  @Field(() => ExportAmountsInput, {
    nullable: true,
    description: "Money in minor units (default) or in major units with the currency's decimals (107.10).",
  })
  amounts?: string;

  @Field(() => Boolean, { nullable: true, description: 'csv only: a UTF-8 byte order mark first, for Excel.' })
  bom?: boolean;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The resource's list filters." })
  filters?: Record<string, unknown>;

  @Field(() => [ScopeEnum], {
    nullable: true,
    description:
      'What the file holds: a row as a holder of these scopes reads it; only callers holding all of them see the ' +
      "export. Default: an admin's scopes; anyone else's that the file depends on.",
  })
  scopes?: string[];
}

@Resolver(() => Export)
export class ExportResolver {
  @Requires()
  @Mutation(() => Export, {
    description:
      "Queues an export (needs the resource's read scope; events need admin); the worker writes the file " +
      '(download it over REST).',
  })
  createExport(@Arg('input', () => CreateExportInput) input: CreateExportInput, @Ctx() ctx: Context): Promise<Export> {
    return ctx.services.exports.create(requirePrincipal(ctx), givenArgs({ ...input }));
  }
}
