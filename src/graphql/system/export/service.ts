// Exports: asked for here (the export and its job in one statement), written by
// the worker (src/jobs/run-export.ts) into "ExportChunk" rows, read back here as a
// stream for the download. The file lives in PostgreSQL, so any API process on
// any machine serves it (docs/decisions.md, Exports). What may be asked:
// request.ts; who sees an export: visibility.ts.
import { actorOf, type Principal } from '../../../auth/principal.js';
import { parseConfig } from '../../../config.js';
import { DomainError } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { eventRow, insertEvents } from '../../../events/insert.js';
import { EXPORT_JOBS } from '../../../jobs/file-jobs.js';
import { sqlSelectOf } from '../../kit/field-sql.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { FileAnswer } from '../../kit/routes.js';
import { inTransaction } from '../../kit/transactions.js';
import { fileChunks, fileJobReads, type FileJobReads } from '../file-job/reads.js';
import { CONTENT_TYPES, FILE_EXTENSIONS } from './format.js';
import { exportList } from './input.js';
import { exportRequest } from './request.js';
import { Export, type ExportFormat } from './type.js';
import { exportsVisibleTo } from './visibility.js';

/** Chunks read per query while streaming a download (each a batch of rows, a few hundred KB). */
const CHUNKS_PER_READ = 4;

const SELECT = sqlSelectOf(Export, 'Export');

/** export.created, raised in the statement that creates the export ($6 its id, $7 and $8 the actor). */
const CREATED_EVENT = insertEvents([
  eventRow(
    {
      id: '$6',
      organizationId: '"Export"."organizationId"',
      type: `'export.created'`,
      object: `(select to_jsonb(shown) from (select ${SELECT}) shown)`,
      actorType: '$7',
      actorId: '$8',
    },
    'from created as "Export"',
  ),
]);

/** The export, its job and export.created, in one statement. */
const CREATE = `with created as (
    insert into "Export" (id, "organizationId", resource, format, amounts, bom, filters, scopes, "updatedAt")
    values ($1, $2, $3, $4, $10, $11, $5::jsonb, $9::text[], now()) returning *),
  queued as (select ${EXPORT_JOBS.addSql('created.id')} from created),
  event as (${CREATED_EVENT})
  select ${SELECT} from created as "Export" cross join (select count(*) from queued) as job`;

export class ExportService {
  readonly list: FileJobReads<Export>['list'];
  readonly get: FileJobReads<Export>['get'];

  constructor(private readonly db: ServiceDependencies) {
    const reads = fileJobReads(db.pool, {
      table: 'Export',
      type: Export,
      list: exportList,
      idKind: 'export',
      visibleTo: exportsVisibleTo,
    });
    this.list = reads.list;
    this.get = reads.get;
  }

  /** EXPORT_MAX_PENDING; tools that build services without a configuration read the environment. */
  private get maxPending(): number {
    return (this.db.config ?? parseConfig(process.env)).exportLimits.maxPending;
  }

  /** Checks the request against what is declared now, then queues the export (export.created). */
  async create(principal: Principal, input: unknown): Promise<Export> {
    const { source, format, amounts, bom, filters, scopes } = exportRequest(principal, input);
    const maxPending = this.maxPending;
    const actor = actorOf(principal);
    // The count and the insert under the organization's lock: two requests at once cannot both take the last place.
    return inTransaction(this.db.pool, async (client) => {
      const { organizationId } = principal;
      await client.query(`select pg_advisory_xact_lock(hashtextextended('export:' || $1, 0))`, [organizationId]);
      const { rows: counted } = await client.query<{ pending: number }>(
        `select count(*)::int as pending from "Export" where "organizationId" = $1 and status in ('pending', 'running')`,
        [organizationId],
      );
      const pending = counted[0]!.pending;
      if (pending >= maxPending) {
        throw new DomainError(
          'CONFLICT',
          `The organization has ${pending} exports pending or running, the most it may have ` +
            '(EXPORT_MAX_PENDING): ask again once one has completed or failed',
        );
      }
      const { rows } = await client.query<Export>(CREATE, [
        newId('export'),
        organizationId,
        source.name,
        format,
        JSON.stringify(filters),
        newId('event'),
        actor.type,
        actor.id,
        scopes,
        amounts,
        bom,
      ]);
      return rows[0]!;
    });
  }

  /** The completed export's file, a few chunks at a time; 409 before that. */
  async download(principal: Principal, id: string): Promise<FileAnswer> {
    const found = await this.get(principal, id);
    if (found.status !== 'completed') {
      throw new DomainError('CONFLICT', `The export is ${found.status}: it can be downloaded once completed`);
    }
    const format = found.format as ExportFormat;
    return {
      contentType: CONTENT_TYPES[format],
      filename: `${found.resource}-${found.id}.${FILE_EXTENSIONS[format]}`,
      size: found.size,
      body: fileChunks(this.db.pool, 'Export', found.id, CHUNKS_PER_READ),
    };
  }
}
