// OAuth apps: the list, a new app (its client id and secret shown once), an
// app's page to edit it, a new secret (shown once), deletion after a confirmation.
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { navigate } from '../../route.js';
import type { PageProps } from '../../section.js';
import {
  CodeTags,
  ConfirmButton,
  ErrorMessage,
  formatDateTime,
  Link,
  Loaded,
  PageHeader,
  ShownOnce,
  useQuery,
  useSubmit,
} from '../../ui.js';
import { OauthAppForm } from './oauth-app-form.js';
import { APP_FIELDS, type OauthApp } from './oauth-app-types.js';

const APPS = `query OauthApps { oauthApps(limit: 100, sort: createdAt_desc) { data { ${APP_FIELDS} } pagination { total } } }`;
const APP = `query OauthApp($id: ID!) { oauthApp(id: $id) { ${APP_FIELDS} } }`;
const ROTATE = `mutation Rotate($id: ID!) { rotateOauthAppSecret(id: $id) { clientId clientSecret } }`;
const DELETE = `mutation Delete($id: ID!) { deleteOauthApp(id: $id) }`;

type Secrets = { title: string; values: { label: string; value: string }[] };

export function OauthAppsPage(_: PageProps) {
  const apps = useQuery<{ oauthApps: { data: OauthApp[] } }>(APPS);
  const [creating, setCreating] = useState(false);
  const [secrets, setSecrets] = useState<Secrets>();
  const created = (app: OauthApp & { clientSecret: string | null }) => {
    setCreating(false);
    setSecrets({
      title: `${app.name} is created`,
      values: [
        { label: 'Client ID', value: app.clientId },
        ...(app.clientSecret ? [{ label: 'Client secret', value: app.clientSecret }] : []),
      ],
    });
    apps.reload();
  };
  return (
    <>
      <PageHeader title="OAuth apps">
        {!creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New OAuth app
          </button>
        )}
      </PageHeader>
      <p class="muted">
        Apps that ask users of this organization for access (OAuth 2.0 authorization code, with PKCE).
      </p>
      {secrets && <ShownOnce title={secrets.title} values={secrets.values} onDone={() => setSecrets(undefined)} />}
      {creating && <OauthAppForm onCreated={created} onCancel={() => setCreating(false)} />}
      <Loaded query={apps}>
        {({ oauthApps }) =>
          oauthApps.data.length === 0 ? (
            <p class="empty">No OAuth app yet.</p>
          ) : (
            <ul class="cards">
              {oauthApps.data.map((app) => (
                <AppCard key={app.id} app={app} onSecret={setSecrets} onDeleted={apps.reload} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}

function AppCard({
  app,
  onSecret,
  onDeleted,
}: {
  app: OauthApp;
  onSecret: (secrets: Secrets) => void;
  onDeleted: () => void;
}) {
  const rotate = useSubmit(async () => {
    const { rotateOauthAppSecret } = await graphql<{ rotateOauthAppSecret: { clientSecret: string | null } }>(ROTATE, {
      id: app.id,
    });
    onSecret({
      title: `A new client secret for ${app.name}`,
      values: [{ label: 'Client secret', value: rotateOauthAppSecret.clientSecret ?? '' }],
    });
  });
  const remove = useSubmit(async () => {
    await graphql(DELETE, { id: app.id });
    onDeleted();
  });
  return (
    <li class="panel card" aria-labelledby={`app-${app.id}`}>
      <h2 id={`app-${app.id}`}>{app.name}</h2>
      {app.description && <p>{app.description}</p>}
      <dl class="facts">
        <dt>Client ID</dt>
        <dd>
          <code>{app.clientId}</code>
        </dd>
        <dt>Type</dt>
        <dd>
          {app.clientType}
          {app.requirePkce ? ', PKCE required' : ''}
        </dd>
        <dt>Redirect URIs</dt>
        <dd>
          {app.redirectUris.map((uri) => (
            <div key={uri}>
              <code>{uri}</code>
            </div>
          ))}
        </dd>
        <dt>Scopes</dt>
        <dd>
          <CodeTags values={app.scopes} />
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(app.createdAt)}</dd>
      </dl>
      <ErrorMessage error={rotate.error ?? remove.error} />
      <div class="actions">
        <Link class="button secondary" href={`/developers/oauth-apps/${app.id}`}>
          Edit<span class="visually-hidden"> {app.name}</span>
        </Link>
        {app.clientType === 'confidential' && (
          <ConfirmButton
            class="secondary"
            question={`Make a new client secret for ${app.name}? The current one stops working at once.`}
            onConfirm={() => rotate.submit()}
          >
            Rotate secret<span class="visually-hidden"> of {app.name}</span>
          </ConfirmButton>
        )}
        <ConfirmButton
          question={`Delete ${app.name}? Every token issued to it stops working at once.`}
          onConfirm={() => remove.submit()}
        >
          Delete<span class="visually-hidden"> {app.name}</span>
        </ConfirmButton>
      </div>
    </li>
  );
}

/** An app's page (/developers/oauth-apps/<id>): its details to edit, back to the list once saved. */
export function OauthAppPage({ params }: PageProps) {
  const app = useQuery<{ oauthApp: OauthApp }>(APP, { id: params.id });
  return (
    <>
      <p>
        <Link href="/developers/oauth-apps">← OAuth apps</Link>
      </p>
      <PageHeader title={app.data ? `Edit ${app.data.oauthApp.name}` : 'OAuth app'} />
      <Loaded query={app}>
        {({ oauthApp }) => (
          <>
            <p class="muted">
              Client ID <code>{oauthApp.clientId}</code>
            </p>
            <OauthAppForm
              app={oauthApp}
              onSaved={() => navigate('/developers/oauth-apps')}
              onCancel={() => navigate('/developers/oauth-apps')}
            />
          </>
        )}
      </Loaded>
    </>
  );
}
