// The overview: who is signed in, in which organization, with which rights.
import type { PageProps } from '../section.js';
import { CodeTags, PageHeader } from '../ui.js';

export function HomePage({ viewer }: PageProps) {
  return (
    <>
      <PageHeader title="Overview" />
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
      <p>
        Everything here goes through the same GraphQL API integrators use; the <a href="/docs">API reference</a>{' '}
        describes the REST side.
      </p>
    </>
  );
}
