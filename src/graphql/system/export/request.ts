// An export's request checked against what is declared now: the resource, its
// filters, the amounts, the byte order mark, and the scopes the file holds
// (visibility.ts says who may ask and who sees it).
import { z } from 'zod';
import { hasScope } from '../../../auth/scopes.js';
import { DomainError, invalidField } from '../../../errors.js';
import { parseInput } from '../../../validation.js';
import { missingScope } from '../../auth-checker.js';
import type { ExportAmounts } from './amounts.js';
import type { createExportSchema } from './input.js';
import type { ExportSource } from './source.js';
import { exportSources } from './sources.js';
import type { ExportFormat } from './type.js';
import { defaultFileScopes } from './visibility.js';

export interface ExportRequest {
  source: ExportSource;
  format: ExportFormat;
  amounts: ExportAmounts;
  bom: boolean;
  filters: Record<string, unknown>;
  scopes: string[];
}

/** The request (createExportSchema's, parsed) of a caller holding `held`. */
export function exportRequest(
  held: ReadonlySet<string>,
  request: Partial<z.infer<typeof createExportSchema>>,
): ExportRequest {
  const sources = exportSources();
  const source = sources.get(request.resource!);
  if (!source) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `'resource' must be one of ${[...sources.keys()].sort().join(', ')}`,
      'resource',
    );
  }
  if (!hasScope(held, source.exportScope)) throw missingScope(source.exportScope);
  // Parsed under `filters` so that a problem names `filters.<name>`.
  const { filters } = parseInput(z.object({ filters: source.filters }), { filters: request.filters ?? {} });
  const amounts = request.amounts ?? 'minor';
  if (amounts === 'decimal' && source.noDecimal) throw invalidField('amounts', `must be minor: ${source.noDecimal}`);
  if (request.bom && request.format !== 'csv') {
    throw invalidField('bom', 'applies to csv only (JSON text must not start with a byte order mark)');
  }
  // What the file holds: the caller's scopes it depends on, or fewer (an employees file without salaries).
  const scopes = request.scopes ?? defaultFileScopes(held, source);
  const wider = scopes.filter((scope) => !hasScope(held, scope));
  if (wider.length) {
    throw new DomainError('FORBIDDEN', `An export cannot hold scopes the caller lacks: ${wider.join(', ')}`, 'scopes');
  }
  if (source.readScope && !hasScope(new Set(scopes), source.readScope)) {
    throw invalidField('scopes', `must include ${source.readScope} to export ${source.name}`);
  }
  return { source, format: request.format!, amounts, bom: request.bom ?? false, filters, scopes };
}
