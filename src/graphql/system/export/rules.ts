// What is particular to an export, as the kit's rules: the request checked
// against what is declared now (request.ts), the organization's cap on exports
// pending or running (EXPORT_MAX_PENDING), and the worker's job, queued in the
// create's transaction (src/jobs/run-export.ts writes the file).
import { parseConfig } from '../../../config.js';
import { DomainError } from '../../../errors.js';
import { EXPORT_JOBS } from '../../../jobs/file-jobs.js';
import type { RuleContext } from '../../kit/lifecycle.js';
import type { Rules } from '../../kit/resource.js';
import { exportRequest } from './request.js';
import type { Export } from './type.js';

/** EXPORT_MAX_PENDING; tools that build services without a configuration read the environment. */
const maxPendingOf = (rules: RuleContext) => (rules.config ?? parseConfig(process.env)).exportLimits.maxPending;

/** 409 when the organization has as many exports pending or running as it may; under its lock until the commit. */
async function requirePendingPlace(rules: RuleContext, maxPending: number): Promise<void> {
  const { organizationId } = rules;
  // Two requests at once cannot both take the last place.
  await rules.query(`select pg_advisory_xact_lock(hashtextextended('export:' || $1, 0))`, [organizationId]);
  const [counted] = await rules.query<{ pending: number }>(
    `select count(*)::int as pending from "Export" where "organizationId" = $1 and status in ('pending', 'running')`,
    [organizationId],
  );
  const pending = counted!.pending;
  if (pending >= maxPending) {
    throw new DomainError(
      'CONFLICT',
      `The organization has ${pending} exports pending or running, the most it may have ` +
        '(EXPORT_MAX_PENDING): ask again once one has completed or failed',
    );
  }
}

export const exportRules: Rules<Export> = {
  /** The export's columns as the request asks them, its defaults filled in. */
  async create(values, rules) {
    const { source, amounts, bom, filters, scopes } = exportRequest(rules.scopes!, values);
    await requirePendingPlace(rules, maxPendingOf(rules));
    return { resource: source.name, amounts, bom, filters, scopes };
  },

  /** The worker's job, committed with the export. */
  async afterCreate(record, rules) {
    await rules.query(`select ${EXPORT_JOBS.addSql('$1::text')}`, [record.id]);
  },
};
