// An import as the API shows it: what was asked, how far the worker is, what it
// created and updated, and the rows it refused with the API's own messages.
import { ObjectType } from 'type-graphql';
import { oneOf, Public, storedObjectList } from '../../kit/fields.js';
import { IMPORT_FORMATS } from '../../../imports/records.js';
import { byteCountKind } from '../file-job/fields.js';

export const IMPORT_MODES = ['create', 'upsert'] as const;
export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
/** Refused rows an import keeps (in row order); rowsRefused counts them all. */
export const IMPORT_ERRORS_KEPT = 1_000;

@ObjectType({ simpleResolvers: true, description: 'A row the import refused, and why (as the API would answer).' })
export class ImportRowError {
  @Public.int({ description: "The record's number: 1 is the first after a CSV's header, or NDJSON's first line." })
  row!: number;

  @Public.text({ nullable: true, description: 'The field at fault, as in the API’s error.field.' })
  field!: string | null;

  @Public.text({ description: "The API's message for this input (the same as its 400 or 409)." })
  message!: string;

  @Public.text({ description: 'The API error code: VALIDATION_ERROR (400), CONFLICT (409), NOT_FOUND.' })
  code!: string;
}

@ObjectType({
  simpleResolvers: true,
  description: "A file of one resource's rows, validated and applied by the worker.",
})
export class Import {
  @Public.id()
  id!: string;

  @Public.text({ description: 'The resource imported into: the last segment of its REST path (contacts).' })
  resource!: string;

  @Public.of(oneOf(IMPORT_FORMATS), { description: 'csv (a header row of API field names) or ndjson.' })
  format!: string;

  @Public.of(oneOf(IMPORT_MODES), {
    description: 'create: every row is a new record; upsert: a row whose key matches a record updates it.',
  })
  mode!: string;

  @Public.text({ nullable: true, description: "upsert: the unique field rows are matched by (a contact's email)." })
  key!: string | null;

  @Public.boolean({ description: 'Every row validated (and its write tried), nothing written.' })
  dryRun!: boolean;

  @Public.boolean({ description: 'All rows or none: any refused row and nothing is written.' })
  atomic!: boolean;

  @Public.of(oneOf(IMPORT_STATUSES), { description: 'queued, running, then completed or failed.' })
  status!: string;

  @Public.of(byteCountKind, { description: 'The uploaded file, in bytes.' })
  size!: number;

  @Public.int({ nullable: true, description: 'Rows in the file, once the worker has counted them.' })
  rowsTotal!: number | null;

  @Public.int({ description: 'Rows validated (and applied, unless a dry run) so far.' })
  rowsProcessed!: number;

  @Public.int({ description: 'Records created (a dry run: that would be created).' })
  rowsCreated!: number;

  @Public.int({ description: 'Records an upsert updated (a dry run: that would be updated).' })
  rowsUpdated!: number;

  @Public.int({ description: 'Rows refused.' })
  rowsRefused!: number;

  @Public.of(storedObjectList(ImportRowError), {
    description: `The refused rows, in row order (the first ${IMPORT_ERRORS_KEPT}).`,
  })
  errors!: ImportRowError[];

  @Public.text({ nullable: true, description: 'Why the import failed (an unreadable file; an atomic import refused).' })
  failureReason!: string | null;

  @Public.timestamp({ nullable: true })
  completedAt!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
