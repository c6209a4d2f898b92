// The overview ('/'): the numbers each role watches, each shown only to a
// viewer holding the scope it needs (finance: receivables; CRM: the pipeline;
// HR: headcount and leave to decide; admin: webhook health and, while the
// organization is new, the getting-started checklist), recent activity, and
// who you are. Every part asks for its own numbers at once, in parallel.
import { can, type PageProps, type Viewer } from '../../section.js';
import { CodeTags, PageHeader, type Query } from '../../ui.js';
import { useAdminOverview, type AdminOverview } from './admin-data.js';
import { RecentActivity } from './activity.js';
import { GettingStarted } from './checklist.js';
import { PeopleCard } from './people.js';
import { PipelineCard } from './pipeline-summary.js';
import { ReceivablesCard } from './receivables.js';
import { WebhookHealthCard } from './webhook-health.js';
import './overview.css';

export function OverviewPage({ viewer }: PageProps) {
  return can(viewer, 'admin') ? <AdminOverviewPage viewer={viewer} /> : <Overview viewer={viewer} />;
}

/** An admin's overview reads users, keys and webhooks once, for the parts that need them. */
function AdminOverviewPage({ viewer }: { viewer: Viewer }) {
  const admin = useAdminOverview();
  return <Overview viewer={viewer} admin={admin} />;
}

function Overview({ viewer, admin }: { viewer: Viewer; admin?: Query<AdminOverview> }) {
  const cards = [
    can(viewer, 'finance:read') && <ReceivablesCard key="receivables" />,
    can(viewer, 'crm:read') && <PipelineCard key="pipeline" />,
    can(viewer, 'hr:read') && <PeopleCard key="people" />,
    admin && <WebhookHealthCard key="webhooks" query={admin} />,
  ].filter(Boolean);
  return (
    <>
      <PageHeader title="Overview" />
      {admin && <GettingStarted query={admin} />}
      {cards.length > 0 && <div class="overview-grid">{cards}</div>}
      <RecentActivity viewer={viewer} names={admin?.data} />
      <section class="panel overview-card" aria-labelledby="you-title">
        <h2 id="you-title">You</h2>
        <dl class="facts">
          <dt>Signed in as</dt>
          <dd>{viewer.user?.name ? `${viewer.user.name} (${viewer.user.email})` : viewer.user?.email}</dd>
          <dt>Role</dt>
          <dd>{viewer.user?.role}</dd>
          <dt>Organization</dt>
          <dd>{viewer.organization.name}</dd>
          <dt>Scopes</dt>
          <dd>
            <CodeTags values={viewer.scopes} />
          </dd>
        </dl>
      </section>
    </>
  );
}
