// `import create`: imports a file into a resource as the operator (POST /v1/imports's
// service, the file streamed from disk), waits for a worker to apply it (showing
// progress), then says what it created, updated and refused.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { operatorPrincipal } from '../auth/principal.js';
import { DomainError } from '../errors.js';
import type { Services } from '../graphql/modules.js';
import type { Import } from '../graphql/system/import/type.js';
import { IMPORT_CONTENT_TYPES, type ImportFormat } from '../imports/records.js';
import type { Command, CommandIo } from './command.js';
import { CliError, invalidOption, notFoundError, optionForField } from './errors.js';
import { progressOn } from './progress.js';

const POLL_MS = 250;
/** Still queued after this long: say that a worker must run. */
const NO_WORKER_NOTE_MS = 5_000;
/** Refused rows shown in text (all of those kept are in --json). */
const SHOWN_REFUSALS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const withoutField = (message: string) => message.replace(/^'[^']*':? ?/, '');

function formatOf(file: string, given: string | undefined): ImportFormat {
  const format = given ?? (/\.csv$/i.test(file) ? 'csv' : /\.(nd)?jsonl?$/i.test(file) ? 'ndjson' : undefined);
  if (format === 'csv' || format === 'ndjson') return format;
  throw invalidOption('--format', 'must be csv or ndjson (or name a .csv or .ndjson file)');
}

async function waitForImport(services: Services, organizationId: string, id: string, io: CommandIo): Promise<Import> {
  const principal = operatorPrincipal(organizationId);
  const progress = progressOn(io.stderr, io.json, 'imported');
  const started = Date.now();
  let noted = false;
  for (;;) {
    const current = await services.imports.get(principal, id);
    if (current.status === 'completed' || current.status === 'failed') {
      if (current.rowsTotal !== null) progress.update(current.rowsProcessed, current.rowsTotal);
      progress.done();
      return current;
    }
    if (current.status === 'queued' && !noted && Date.now() - started > NO_WORKER_NOTE_MS) {
      progress.note('waiting for a worker to take the import (npm start, or npm run worker, must be running)');
      noted = true;
    }
    if (current.status === 'running') progress.update(current.rowsProcessed, current.rowsTotal);
    await sleep(POLL_MS);
  }
}

function summary(done: Import): string {
  const what = done.dryRun ? 'Dry run (nothing written): would create' : 'Created';
  const lines = [
    `${what} ${done.rowsCreated}, ${done.dryRun ? 'would update' : 'updated'} ${done.rowsUpdated}, refused ` +
      `${done.rowsRefused} of ${done.rowsTotal ?? 0} rows of ${done.resource} (${done.id})`,
    ...done.errors
      .slice(0, SHOWN_REFUSALS)
      .map((error) => `  row ${error.row}${error.field ? ` (${error.field})` : ''}: ${error.message}`),
  ];
  if (done.rowsRefused > SHOWN_REFUSALS)
    lines.push(`  … ${done.rowsRefused - SHOWN_REFUSALS} more (--json shows them)`);
  return lines.join('\n');
}

export const importCreate: Command = {
  name: 'import create',
  options: ['org', 'resource', 'file', 'format', 'mode', 'key', 'dry-run', 'atomic'],
  switches: ['dry-run', 'atomic'],
  prepare(flags) {
    const organizationId = flags.org?.trim();
    if (!organizationId) throw invalidOption('--org', 'is required');
    const file = flags.file;
    if (!file) throw invalidOption('--file', 'is required: the CSV or NDJSON file to import');
    const format = formatOf(file, flags.format);
    const options = {
      resource: flags.resource ?? '',
      format,
      ...(flags.mode !== undefined && { mode: flags.mode }),
      ...(flags.key !== undefined && { key: flags.key }),
      ...(flags['dry-run'] === 'true' && { dryRun: 'true' }),
      ...(flags.atomic === 'true' && { atomic: 'true' }),
    };
    return async (services, io) => {
      if (!(await services.organizations.exists(organizationId))) {
        throw notFoundError(`organization ${organizationId} not found`, '--org');
      }
      await stat(file).catch(() => {
        throw invalidOption('--file', `cannot read ${file}`);
      });
      let created: { id: string };
      try {
        created = await services.imports.receive(operatorPrincipal(organizationId), options, {
          contentType: IMPORT_CONTENT_TYPES[format],
          body: createReadStream(file),
        });
      } catch (error) {
        if (error instanceof DomainError && error.field) {
          throw invalidOption(optionForField(error.field), withoutField(error.message));
        }
        throw error;
      }
      const done = await waitForImport(services, organizationId, created.id, io);
      if (done.status === 'failed') {
        const refused = done.rowsRefused ? `\n${summary(done)}` : '';
        throw new CliError(
          'INTERNAL_ERROR',
          `import ${done.id} failed: ${done.failureReason ?? 'no reason given'}${refused}`,
          1,
        );
      }
      return { json: done, text: summary(done) };
    };
  },
};
