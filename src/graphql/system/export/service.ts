// Exports: asked for here (the export and its job in one statement), written by
// the worker (src/jobs/run-export.ts) into "ExportChunk" rows, read back here as a
// stream for the download. The file lives in PostgreSQL, so any API process on
// any machine serves it (docs/decisions.md, Exports). Who may export what and
// who sees an export: visibility.ts.
import { z } from 'zod';
import { actorOf, type Principal } from '../../../auth/principal.js';
import { hasScope } from '../../../auth/scopes.js';
import { parseConfig, type ExportLimits } from '../../../config.js';
import { DomainError, invalidField, notFound } from '../../../errors.js';
import { isWellFormedId, newId } from '../../../ids.js';
import { eventRow, insertEvents } from '../../../events/insert.js';
import { addExportJobSql } from '../../../jobs/export-jobs.js';
import { parseInput } from '../../../validation.js';
import { missingScope } from '../../auth-checker.js';
import { sqlSelectOf } from '../../kit/fields.js';
import { listPage } from '../../kit/list-query.js';
import { inTransaction } from '../../kit/store.js';
import type { ServiceDependencies } from '../../kit/module.js';
import type { Page } from '../../kit/page.js';
import { CONTENT_TYPES, FILE_EXTENSIONS } from './format.js';
import { createExportSchema, exportList } from './input.js';
import { exportSources } from './sources.js';
import { Export, type ExportFormat } from './type.js';
import { defaultFileScopes, exportsVisibleTo } from './visibility.js';

/** Chunks read per query while streaming a download (each a batch of rows, a few hundred KB). */
const CHUNKS_PER_READ = 4;

/** A file to answer with: its type, its name, its size and its bytes in order. */
export interface ExportFile {
  contentType: string;
  filename: string;
  size: number;
  body: AsyncIterable<Buffer>;
}

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

export class ExportService {
  private limits?: ExportLimits;

  constructor(private readonly db: ServiceDependencies) {}

  /** The configured bounds; tools that build services without a configuration read the environment. */
  private get maxPending(): number {
    this.limits ??= (this.db.config ?? parseConfig(process.env)).exportLimits;
    return this.limits.maxPending;
  }

  /** The exports the caller may see: those whose scopes it holds. */
  list(principal: Principal, args: unknown): Promise<Page<Export>> {
    const narrow = exportsVisibleTo(principal);
    return listPage(this.db.pool, { table: 'Export', type: Export, list: exportList, narrow }, principal, args);
  }

  /** An export the caller may see; another is 404, as another organization's. */
  async get(principal: Principal, id: string): Promise<Export> {
    if (!isWellFormedId('export', id)) throw notFound('Export');
    const visible = exportsVisibleTo(principal);
    const { rows } = await this.db.pool.query<Export>(
      `select ${SELECT} from "Export" where id = $1 and "organizationId" = $2${visible ? ` and ${visible.where('$3')}` : ''}`,
      visible ? [id, principal.organizationId, visible.value] : [id, principal.organizationId],
    );
    if (!rows[0]) throw notFound('Export');
    return rows[0];
  }

  /** Checks the resource and its filters against what is declared now, then queues the export (export.created). */
  async create(principal: Principal, input: unknown): Promise<Export> {
    const request = parseInput(createExportSchema, input);
    const sources = exportSources();
    const source = sources.get(request.resource);
    if (!source) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `'resource' must be one of ${[...sources.keys()].sort().join(', ')}`,
        'resource',
      );
    }
    if (!hasScope(principal.scopes, source.exportScope)) throw missingScope(source.exportScope);
    // Parsed under `filters` so that a problem names `filters.<name>`.
    const { filters } = parseInput(z.object({ filters: source.filters }), { filters: request.filters ?? {} });
    const amounts = request.amounts ?? 'minor';
    if (amounts === 'decimal' && source.noDecimal) throw invalidField('amounts', `must be minor: ${source.noDecimal}`);
    if (request.bom && request.format !== 'csv') {
      throw invalidField('bom', 'applies to csv only (JSON text must not start with a byte order mark)');
    }
    // What the file holds: the caller's scopes it depends on, or fewer (an employees file without salaries).
    const scopes = request.scopes ?? defaultFileScopes(principal, source);
    const wider = scopes.filter((scope) => !hasScope(principal.scopes, scope));
    if (wider.length) {
      throw new DomainError(
        'FORBIDDEN',
        `An export cannot hold scopes the caller lacks: ${wider.join(', ')}`,
        'scopes',
      );
    }
    if (source.readScope && !hasScope(new Set(scopes), source.readScope)) {
      throw invalidField('scopes', `must include ${source.readScope} to export ${source.name}`);
    }
    const maxPending = this.maxPending;
    const actor = actorOf(principal);
    // The count and the insert under the organization's lock: two requests at once cannot both take the last place.
    return inTransaction(this.db.pool, async (client) => {
      await client.query(`select pg_advisory_xact_lock(hashtextextended('export:' || $1, 0))`, [
        principal.organizationId,
      ]);
      const { rows: counted } = await client.query<{ pending: number }>(
        `select count(*)::int as pending from "Export" where "organizationId" = $1 and status in ('pending', 'running')`,
        [principal.organizationId],
      );
      const pending = counted[0]!.pending;
      if (pending >= maxPending) {
        throw new DomainError(
          'CONFLICT',
          `The organization has ${pending} exports pending or running, the most it may have ` +
            '(EXPORT_MAX_PENDING): ask again once one has completed or failed',
        );
      }
      const { rows } = await client.query<Export>(
        `with created as (
           insert into "Export" (id, "organizationId", resource, format, amounts, bom, filters, scopes, "updatedAt")
           values ($1, $2, $3, $4, $10, $11, $5::jsonb, $9::text[], now()) returning *),
         queued as (select ${addExportJobSql('created.id')} from created),
         event as (${CREATED_EVENT})
         select ${SELECT} from created as "Export" cross join (select count(*) from queued) as job`,
        [
          newId('export'),
          principal.organizationId,
          source.name,
          request.format,
          JSON.stringify(filters),
          newId('event'),
          actor.type,
          actor.id,
          scopes,
          amounts,
          request.bom ?? false,
        ],
      );
      return rows[0]!;
    });
  }

  /** The completed export's file; 409 before that. */
  async download(principal: Principal, id: string): Promise<ExportFile> {
    const found = await this.get(principal, id);
    if (found.status !== 'completed') {
      throw new DomainError('CONFLICT', `The export is ${found.status}: it can be downloaded once completed`);
    }
    const format = found.format as ExportFormat;
    return {
      contentType: CONTENT_TYPES[format],
      filename: `${found.resource}-${found.id}.${FILE_EXTENSIONS[format]}`,
      size: found.size,
      body: this.chunks(found.id),
    };
  }

  /** The file's chunks in order, a few at a time: never the whole file in memory. */
  private async *chunks(id: string): AsyncIterable<Buffer> {
    for (let next = 0; ; next += CHUNKS_PER_READ) {
      const { rows } = await this.db.pool.query<{ data: Buffer }>(
        `select data from "ExportChunk" where "exportId" = $1 and seq >= $2 order by seq limit ${CHUNKS_PER_READ}`,
        [id, next],
      );
      for (const row of rows) yield row.data;
      if (rows.length < CHUNKS_PER_READ) return;
    }
  }
}
