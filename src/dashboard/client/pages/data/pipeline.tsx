// The deals pipeline: one column per stage with how many deals it holds and
// their amounts per currency, summed by the server (dealPipeline).
import { Link, Loaded, PageHeader, formatMoney, useQuery } from '../../ui.js';

interface StageSummary {
  stage: string;
  count: number;
  amounts: { currency: string; amount: number }[];
}

const PIPELINE = `query Pipeline { dealPipeline { stage count amounts { currency amount } } }`;

export function PipelinePage() {
  const result = useQuery<{ dealPipeline: StageSummary[] }>(PIPELINE);
  return (
    <>
      <PageHeader title="Pipeline">
        <Link class="button secondary" href="/crm/deals">
          All deals
        </Link>
      </PageHeader>
      <Loaded query={result}>
        {({ dealPipeline }) => (
          <ol class="pipeline">
            {dealPipeline.map((summary) => (
              <li class="pipeline-stage" key={summary.stage}>
                <h2 id={`stage-${summary.stage}`}>{summary.stage}</h2>
                <p class="pipeline-count">
                  <Link href={`/crm/deals?stage=${summary.stage}`}>
                    {summary.count} {summary.count === 1 ? 'deal' : 'deals'}
                  </Link>
                </p>
                {summary.amounts.length ? (
                  <ul class="plain-list">
                    {summary.amounts.map((amount) => (
                      <li key={amount.currency} class="number">
                        {formatMoney(amount.amount, amount.currency)}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p class="muted">No amounts</p>
                )}
              </li>
            ))}
          </ol>
        )}
      </Loaded>
    </>
  );
}
