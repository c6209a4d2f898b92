// Thin: every export operation needs `admin` (an export reads any area); the work
// is in ExportService and the worker's run_export task.
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal } from '../../auth-checker.js';
import type { Context } from '../../context.js';
import { givenArgs } from '../../kit/args.js';
import { graphqlEnum } from '../../kit/enums.js';
import { PageOf, type Page } from '../../kit/page.js';
import { lookupOptions } from '../../kit/lookup.js';
import { Requires } from '../../kit/scope.js';
import { ScopeEnum } from '../../kit/wire-enums.js';
import { exportList } from './input.js';
import { Export, EXPORT_FORMATS } from './type.js';

// Made at load time: type-graphql reads types when the schema is built, not later.
const ExportPage = PageOf(Export);
const ExportFormatInput = graphqlEnum('ExportFormat', EXPORT_FORMATS, {
  description: 'csv, or json (newline-delimited).',
});

@InputType({ description: 'What to export.' })
class CreateExportInput {
  @Field(() => String, {
    description: 'The last segment of the resource REST path (contacts, payroll-runs) or events.',
  })
  resource!: string;

  @Field(() => ExportFormatInput)
  format!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The resource's list filters." })
  filters?: Record<string, unknown>;

  @Field(() => [ScopeEnum], {
    nullable: true,
    description: "What the file holds: a row as a holder of these scopes reads it. Default: the caller's scopes.",
  })
  scopes?: string[];
}

@Resolver(() => Export)
export class ExportResolver {
  @Requires('admin')
  @Query(() => ExportPage, { description: 'Exports of the organization, oldest first.' })
  exports(@Args(() => exportList.Args) args: object, @Ctx() ctx: Context): Promise<Page<Export>> {
    return ctx.services.exports.list(requirePrincipal(ctx), givenArgs(args));
  }

  @Requires('admin')
  @Query(() => Export, lookupOptions('export'))
  export(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<Export> {
    return ctx.services.exports.get(requirePrincipal(ctx), id);
  }

  @Requires('admin')
  @Mutation(() => Export, { description: 'Queues an export; the worker writes the file (download it over REST).' })
  createExport(@Arg('input', () => CreateExportInput) input: CreateExportInput, @Ctx() ctx: Context): Promise<Export> {
    return ctx.services.exports.create(requirePrincipal(ctx), givenArgs({ ...input }));
  }
}
