// The exports' service: the kit's (list, get and create, each narrowed to the
// exports the caller may see: visibility.ts) and the download of a completed
// file. The worker (src/jobs/run-export.ts) writes the file into "ExportChunk"
// rows; it is read back here as a stream, so any API process on any machine
// serves it (docs/decisions.md, Exports).
import type { Principal } from '../../../auth/principal.js';
import { DomainError } from '../../../errors.js';
import { ResourceService } from '../../kit/resource-service.js';
import type { FileAnswer } from '../../kit/routes.js';
import { fileChunks } from '../file-job/reads.js';
import { CONTENT_TYPES, FILE_EXTENSIONS } from './format.js';
import type { Export, ExportFormat } from './type.js';

/** Chunks read per query while streaming a download (each a batch of rows, a few hundred KB). */
const CHUNKS_PER_READ = 4;

export class ExportService extends ResourceService<Export> {
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
