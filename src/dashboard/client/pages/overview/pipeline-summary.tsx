// Sales (crm:read): the deals of each stage, how many and their amounts per
// currency, as the server sums them (dealPipeline), with the board a click away.
import { formatMoney, humanize, Link, useQuery } from '../../ui.js';
import { OverviewCard } from './card.js';

interface StageSummary {
  stage: string;
  count: number;
  amounts: { currency: string; amount: number }[];
}

const PIPELINE = `query OverviewPipeline { dealPipeline { stage count amounts { currency amount } } }`;

export function PipelineCard() {
  const query = useQuery<{ dealPipeline: StageSummary[] }>(PIPELINE);
  return (
    <OverviewCard id="pipeline" title="Pipeline" query={query}>
      {({ dealPipeline }) => (
        <>
          <table class="overview-table">
            <thead>
              <tr>
                <th scope="col">Stage</th>
                <th scope="col" class="number">
                  Deals
                </th>
                <th scope="col" class="number">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {dealPipeline.map(({ stage, count, amounts }) => (
                <tr key={stage}>
                  <th scope="row">{humanize(stage)}</th>
                  <td class="number">{count}</td>
                  <td class="number">
                    {amounts.length
                      ? amounts.map((sum) => (
                          <span class="sum" key={sum.currency}>
                            {formatMoney(sum.amount, sum.currency)}
                          </span>
                        ))
                      : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="card-links">
            <Link href="/crm/pipeline">Open the pipeline board</Link>
          </p>
        </>
      )}
    </OverviewCard>
  );
}
