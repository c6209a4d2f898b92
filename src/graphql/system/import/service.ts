// The imports' service: the kit's (list and get, narrowed: visibility.ts), the
// file taken (checked against the resource's declaration, then streamed into
// "ImportChunk" rows with the import and its job, in one transaction) and a
// resource's template. The worker applies it (src/jobs/run-import.ts). The file
// lives in PostgreSQL, so any API process may take it and any worker apply it
// (docs/decisions.md, Imports). Posting an import needs the resource's write scope.
import { actorOf, type Principal } from '../../../auth/principal.js';
import { hasScope } from '../../../auth/scopes.js';
import { parseConfig } from '../../../config.js';
import { DomainError, invalidField } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { importableNamed, requireUpsertKey } from '../../../imports/importable.js';
import { IMPORT_CONTENT_TYPES, IMPORT_FORMATS, type ImportFormat } from '../../../imports/records.js';
import { importTemplate } from '../../../imports/template.js';
import { IMPORT_JOBS } from '../../../jobs/file-jobs.js';
import { parseInput } from '../../../validation.js';
import { missingScope } from '../../auth-checker.js';
import { ResourceService } from '../../kit/resource-service.js';
import { inTransaction } from '../../kit/transactions.js';
import { createImportSchema, importTemplateSchema } from './input.js';
import type { Import } from './type.js';

/** Bytes per stored chunk of the uploaded file. */
export const IMPORT_CHUNK_BYTES = 1024 * 1024;

/** The format a body's Content-Type names, or a 415. */
export function formatOfContentType(contentType: string | undefined): ImportFormat {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const format = IMPORT_FORMATS.find((name) => IMPORT_CONTENT_TYPES[name] === type);
  if (!format) {
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the file as text/csv (format=csv) or application/x-ndjson (format=ndjson)',
    );
  }
  return format;
}

export interface ImportUpload {
  /** The body's Content-Type. */
  contentType: string | undefined;
  /** The body's bytes (decoded), in order. */
  body: AsyncIterable<Buffer>;
}

export class ImportService extends ResourceService<Import> {
  private maxBytesSetting?: number;

  /** IMPORT_MAX_BYTES; tools that build services without a configuration read the environment. */
  get maxBytes(): number {
    this.maxBytesSetting ??= (this.db.config ?? parseConfig(process.env)).importMaxBytes;
    return this.maxBytesSetting;
  }

  /** The CSV header row of the resource's input fields, and a row of its declared example. */
  template(input: unknown): string {
    const { resource } = parseInput(importTemplateSchema, input);
    return importTemplate(importableNamed(resource));
  }

  /**
   * Checks the options against the resource's declaration, then stores the file
   * and queues the import; answers its id. Nothing is kept when the body fails
   * (too large, the client gone).
   */
  async receive(principal: Principal, options: unknown, upload: ImportUpload): Promise<{ id: string }> {
    const contentFormat = formatOfContentType(upload.contentType);
    const request = parseInput(createImportSchema, options);
    const importable = importableNamed(request.resource);
    const { area } = importable.resource;
    if (!hasScope(principal.scopes, area.write)) throw missingScope(area.write);
    if (request.format && request.format !== contentFormat) {
      throw invalidField('format', `is ${request.format}, but the body is ${IMPORT_CONTENT_TYPES[contentFormat]}`);
    }
    const mode = request.mode ?? 'create';
    let key: string | null = null;
    if (mode === 'upsert') {
      key = requireUpsertKey(importable, request.key);
    } else if (request.key !== undefined) {
      throw invalidField('key', 'applies to mode=upsert only');
    }
    const maxBytes = this.maxBytes;
    const actor = actorOf(principal);
    const id = newId('import');
    return inTransaction(this.db.pool, async (client) => {
      await client.query(
        `insert into "Import" (id, "organizationId", resource, format, mode, key, "dryRun", atomic, scopes,
           "callerScopes", "userId", "actorType", "actorId", "updatedAt")
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], $10::text[], $11, $12, $13, now())`,
        [
          id,
          principal.organizationId,
          importable.name,
          contentFormat,
          mode,
          key,
          request.dryRun ?? false,
          request.atomic ?? false,
          [area.read, area.write],
          [...principal.scopes],
          principal.userId ?? null,
          actor.type,
          actor.id,
        ],
      );
      let size = 0;
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (!pendingBytes) return;
        await client.query(`insert into "ImportChunk" ("importId", seq, data) values ($1, $2, $3)`, [
          id,
          seq++,
          Buffer.concat(pending),
        ]);
        pending = [];
        pendingBytes = 0;
      };
      for await (const piece of upload.body) {
        size += piece.length;
        if (size > maxBytes) {
          throw new DomainError(
            'PAYLOAD_TOO_LARGE',
            `The file must be at most ${maxBytes} bytes (IMPORT_MAX_BYTES): split it into several imports`,
          );
        }
        pending.push(piece);
        pendingBytes += piece.length;
        if (pendingBytes >= IMPORT_CHUNK_BYTES) await flush();
      }
      await flush();
      if (size === 0) throw new DomainError('VALIDATION_ERROR', 'The body is empty: send the file to import');
      await client.query(`update "Import" set size = $2 where id = $1`, [id, size]);
      await client.query(`select ${IMPORT_JOBS.addSql('$1::text')}`, [id]);
      return { id };
    });
  }
}
