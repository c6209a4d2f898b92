// `export create`: asks for an export as the operator, waits for a worker to
// write it (showing progress), then downloads the file.
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { operatorPrincipal } from '../auth/principal.js';
import { DomainError } from '../errors.js';
import type { Services } from '../graphql/modules.js';
import { FILE_EXTENSIONS } from '../graphql/system/export/format.js';
import { createExportSchema } from '../graphql/system/export/input.js';
import type { Export, ExportFormat } from '../graphql/system/export/type.js';
import { parseInput } from '../validation.js';
import type { Command, CommandIo } from './command.js';
import { CliError, invalidOption, notFoundError, optionForField } from './errors.js';
import { progressOn } from './progress.js';

const POLL_MS = 250;
/** Still pending after this long: say that a worker must run. */
const NO_WORKER_NOTE_MS = 5_000;

/** The service names its field ('resource' must be …); the operator typed an option. */
const withoutField = (message: string) => message.replace(/^'[^']*':? ?/, '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function filtersOption(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw invalidOption('--filters', 'must be a JSON object of the resource list filters, e.g. {"company":"Acme"}');
}

async function waitForFile(services: Services, organizationId: string, created: Export, io: CommandIo) {
  const principal = operatorPrincipal(organizationId);
  const progress = progressOn(io.stderr, io.json);
  const started = Date.now();
  let noted = false;
  for (;;) {
    const current = await services.exports.get(principal, created.id);
    if (current.status === 'completed') {
      progress.update(current.rowsWritten, current.rowsTotal);
      progress.done();
      return current;
    }
    if (current.status === 'failed') {
      progress.done();
      throw new CliError(
        'INTERNAL_ERROR',
        `export ${current.id} failed: ${current.failureReason ?? 'no reason given'}`,
        1,
      );
    }
    if (current.status === 'pending' && !noted && Date.now() - started > NO_WORKER_NOTE_MS) {
      progress.note('waiting for a worker to take the export (npm start, or npm run worker, must be running)');
      noted = true;
    }
    if (current.status === 'running') progress.update(current.rowsWritten, current.rowsTotal);
    await sleep(POLL_MS);
  }
}

export const exportCreate: Command = {
  name: 'export create',
  options: ['org', 'resource', 'format', 'amounts', 'bom', 'filters', 'out'],
  switches: ['bom'],
  prepare(flags) {
    const organizationId = flags.org?.trim();
    if (!organizationId) throw invalidOption('--org', 'is required');
    const input = {
      resource: flags.resource ?? '',
      format: flags.format ?? '',
      ...(flags.amounts !== undefined && { amounts: flags.amounts }),
      ...(flags.bom === 'true' && { bom: true }),
      filters: filtersOption(flags.filters),
    };
    try {
      parseInput(createExportSchema, input);
    } catch (error) {
      if (error instanceof DomainError && error.field)
        throw invalidOption(optionForField(error.field), withoutField(error.message));
      throw error;
    }
    return async (services, io) => {
      if (!(await services.organizations.exists(organizationId))) {
        throw notFoundError(`organization ${organizationId} not found`, '--org');
      }
      const principal = operatorPrincipal(organizationId);
      let created: Export;
      try {
        created = await services.exports.create(principal, input);
      } catch (error) {
        // The resource and filters are checked against what is declared: name the option.
        if (error instanceof DomainError && error.field) {
          const option = error.field.startsWith('filters') ? '--filters' : optionForField(error.field);
          throw invalidOption(option, withoutField(error.message));
        }
        throw error;
      }
      const done = await waitForFile(services, organizationId, created, io);
      const out = flags.out ?? `${done.resource}-${done.id}.${FILE_EXTENSIONS[done.format as ExportFormat]}`;
      const file = await services.exports.download(principal, done.id);
      await pipeline(Readable.from(file.body), createWriteStream(out));
      return {
        json: { ...done, file: out },
        text: `Exported ${done.rowsWritten} rows of ${done.resource} (${done.size} bytes, ${done.format}) to ${out}`,
      };
    };
  },
};
