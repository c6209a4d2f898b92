// An export as the API shows it: what was asked, how far the worker is, and the file's size.
import { GraphQLJSONObject } from 'graphql-scalars';
import { ObjectType } from 'type-graphql';
import { z } from 'zod';
import { FIELD_KINDS, oneOf, Public, type FieldKind } from '../../kit/fields.js';
import { byteCountKind } from '../file-job/fields.js';
import { EXPORT_AMOUNTS } from './amounts.js';

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;

/** The change feed's cursor an export carries: text, with an example in the OpenAPI document. */
const changesCursorKind: FieldKind = {
  ...FIELD_KINDS.text,
  schema: () => z.string().meta({ example: 'YzE6b3JnXzAxSFpYM1E5SjZZMlc4UjVUNEs3TTFOMFBBOjQyMTc' }),
};

/** A JSON object column, shown as it is. */
const jsonObjectKind: FieldKind = {
  graphql: () => GraphQLJSONObject,
  schema: () => z.record(z.string(), z.unknown()),
  sql: (c) => c,
  fromRow: (v) => v,
  column: 'JSONB',
};

@ObjectType({ simpleResolvers: true, description: "A file of one resource's rows, written by the worker." })
export class Export {
  @Public.id()
  id!: string;

  @Public.text({ description: 'The resource exported: the last segment of its REST path (contacts, events).' })
  resource!: string;

  @Public.of(oneOf(EXPORT_FORMATS), {
    description: 'csv (RFC 4180, a header row) or json (newline-delimited: one REST object per line).',
  })
  format!: string;

  @Public.of(oneOf(EXPORT_AMOUNTS), {
    description:
      'minor: money as the API writes it (integer minor units); decimal: in major units with the ' +
      "currency's decimals (107.10 EUR, 1500 JPY, 1.500 KWD), as strings in json.",
  })
  amounts!: string;

  @Public.boolean({ description: 'The csv file starts with a UTF-8 byte order mark (for Excel).' })
  bom!: boolean;

  @Public.of(jsonObjectKind, { description: "The resource's list filters the rows were chosen by." })
  filters!: Record<string, unknown>;

  @Public.scopes({
    description:
      "What the file holds: each row as a holder of these scopes reads it (an employee's `salary` and " +
      '`currency` need `hr:payroll`; events, the types they read). Only callers holding every one of them see ' +
      "the export. Default: an admin's own; anyone else's that the file depends on.",
  })
  scopes!: string[];

  @Public.of(oneOf(EXPORT_STATUSES), { description: 'The file can be downloaded once completed.' })
  status!: string;

  @Public.int({ description: 'Rows written so far.' })
  rowsWritten!: number;

  @Public.int({ nullable: true, description: 'Rows the file will hold, once the worker has counted them.' })
  rowsTotal!: number | null;

  @Public.of(byteCountKind, { description: 'Bytes written so far; the file size once completed.' })
  size!: number;

  @Public.text({ nullable: true, description: 'Why the export failed.' })
  failureReason!: string | null;

  @Public.of(changesCursorKind, {
    nullable: true,
    description:
      'Where to follow the change feed from once the file is loaded (GET /v1/changes?after=): taken in the ' +
      'snapshot the file was read in, so every change committed after it comes after this cursor. A change the ' +
      'file already holds may come again (apply it again: it is the same or a later state). Null until the ' +
      'worker starts the file. Follows every resource, or any resources filter.',
  })
  changesCursor!: string | null;

  @Public.timestamp({ nullable: true })
  completedAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
