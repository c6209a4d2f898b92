// One box of the overview: a titled region (found by its heading's name), its
// numbers once loaded, and where to go for more.
import type { ComponentChildren } from 'preact';
import type { Query } from '../../ui.js';
import { Link, Loaded } from '../../ui.js';

export function OverviewCard<T>({
  id,
  title,
  query,
  children,
  wide,
}: {
  id: string;
  title: string;
  query: Query<T>;
  children: (data: T) => ComponentChildren;
  wide?: boolean;
}) {
  return (
    <section class={`overview-card panel${wide ? ' wide' : ''}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <Loaded query={query}>{children}</Loaded>
    </section>
  );
}

/** A number and what it counts, big enough to read at a glance; with `href`, a link to what it counts. */
export function Figure({
  id,
  value,
  label,
  href,
}: {
  id: string;
  value: ComponentChildren;
  label: string;
  href?: string;
}) {
  return (
    <div class="figure">
      <dt id={`${id}-label`}>{label}</dt>
      <dd>
        {href ? (
          <Link href={href} aria-describedby={`${id}-label`} data-figure={id}>
            {value}
          </Link>
        ) : (
          <span data-figure={id}>{value}</span>
        )}
      </dd>
    </div>
  );
}

/** A list's count as the API gives it: exact, or a lower bound past 1,000 matches. */
export interface Counted {
  pagination: { total: number; totalExact: boolean };
}

/** "12", or "1,000+" when the API counted no further. */
export const countOf = ({ pagination }: Counted) =>
  pagination.totalExact ? String(pagination.total) : `${pagination.total.toLocaleString()}+`;
