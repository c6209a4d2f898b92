// Creating an API key: a name, scopes picked from those the viewer may grant,
// an optional expiry; then the key and its secret, shown this once.
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { navigate } from '../../route.js';
import type { PageProps } from '../../section.js';
import { checkedValues, ErrorMessage, Field, Link, PageHeader, ShownOnce, useSubmit } from '../../ui.js';
import type { NewApiKey } from './api-keys.js';
import { grantableScopes, ScopeChecks } from '../../scopes.js';

const CREATE = `mutation CreateApiKey($input: CreateApiKeyInput!) {
  createApiKey(input: $input) { id name key secret }
}`;

export function NewApiKeyPage({ viewer }: PageProps) {
  const [created, setCreated] = useState<NewApiKey>();
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const expires = String(data.get('expiresAt') ?? '');
    const input = {
      name: String(data.get('name') ?? '').trim(),
      scopes: checkedValues(form, 'scopes'),
      // The end of the chosen day, UTC: a key "expiring on" a day works through it.
      ...(expires ? { expiresAt: `${expires}T23:59:59Z` } : {}),
    };
    const { createApiKey } = await graphql<{ createApiKey: NewApiKey }>(CREATE, { input });
    setCreated(createApiKey);
  });
  if (created) {
    return (
      <>
        <PageHeader title="API key created" />
        <ShownOnce
          title={`Key and secret for ${created.name}`}
          values={[
            { label: 'Key', value: created.key },
            { label: 'Secret', value: created.secret },
          ]}
          onDone={() => navigate('/settings/api-keys')}
        />
        <p class="muted">
          Use the key as <code>Authorization: Bearer &lt;key&gt;</code>; the secret is for the OAuth client_credentials
          grant.
        </p>
      </>
    );
  }
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit(event.currentTarget as HTMLFormElement);
  };
  return (
    <>
      <PageHeader title="New API key" />
      <form class="stacked panel" onSubmit={onSubmit} noValidate>
        <ErrorMessage error={formError(['name', 'scopes', 'expiresAt'])} />
        <Field label="Name" name="name" required hint="What uses it, e.g. Billing sync" error={fieldError('name')} />
        <ScopeChecks scopes={grantableScopes(viewer)} error={fieldError('scopes')} />
        <Field
          label="Expires on (optional)"
          name="expiresAt"
          type="date"
          hint="Leave empty for a key that does not expire."
          error={fieldError('expiresAt')}
        />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create API key'}
          </button>
          <Link class="button secondary" href="/settings/api-keys">
            Cancel
          </Link>
        </div>
      </form>
    </>
  );
}
