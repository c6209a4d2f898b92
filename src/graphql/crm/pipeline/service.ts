// Deals counted and summed per stage and currency by PostgreSQL (one GROUP BY),
// every stage listed, in lifecycle order, those without deals as zero.
import type { Principal } from '../../../auth/principal.js';
import { DomainError } from '../../../errors.js';
import type { ServiceDependencies } from '../../kit/module.js';
import { DEAL_STAGES, type DealStage } from '../deal/type.js';
import type { DealStageSummary } from './type.js';

interface GroupRow {
  stage: string;
  currency: string;
  count: number;
  /** numeric: a sum of bigints may pass 2^53. */
  amount: string;
}

export class DealPipelineService {
  constructor(private readonly db: ServiceDependencies) {}

  async summary(principal: Principal): Promise<DealStageSummary[]> {
    const { rows } = await this.db.pool.query<GroupRow>({
      text: `select stage, currency, count(*)::int as count, sum(amount)::text as amount
             from "Deal" where "organizationId" = $1
             group by stage, currency order by stage, currency`,
      values: [principal.organizationId],
    });
    const stages = new Map<string, DealStageSummary>(
      DEAL_STAGES.map((stage: DealStage) => [stage, { stage, count: 0, amounts: [] }]),
    );
    for (const row of rows) {
      const summary = stages.get(row.stage);
      // A stage outside the lifecycle cannot be stored through the API; not counted if it were.
      if (!summary) continue;
      summary.count += row.count;
      summary.amounts.push({ currency: row.currency, amount: safeSum(row.amount) });
    }
    return [...stages.values()];
  }
}

/** A sum as a number, or a clear error when it is past what a JSON number carries exactly. */
function safeSum(value: string): number {
  const amount = Number(value);
  if (!Number.isSafeInteger(amount)) {
    throw new DomainError('CONFLICT', 'The sum of these deal amounts is too large to show exactly');
  }
  return amount;
}
