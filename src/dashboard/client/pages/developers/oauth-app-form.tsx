// An OAuth app's form, to create one or edit one: name, description, redirect
// URIs (one a line), the scopes it may ask for, whether PKCE is required, and on
// creation public or confidential (which cannot change afterwards: the API
// refuses it on update).
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { ErrorMessage, Field, checkedValues, formValues, useSubmit } from '../../ui.js';
import { APP_FIELDS, type OauthApp } from './oauth-app-types.js';
import { ScopeChecks } from '../../scopes.js';
import { SCOPES } from '../../../../auth/scopes.js';

const CREATE = `mutation CreateOauthApp($input: CreateOauthAppInput!) {
  createOauthApp(input: $input) { ${APP_FIELDS} clientSecret }
}`;
const UPDATE = `mutation UpdateOauthApp($id: ID!, $input: UpdateOauthAppInput!) {
  updateOauthApp(id: $id, input: $input) { ${APP_FIELDS} }
}`;

const FIELDS = ['name', 'description', 'redirectUris', 'scopes', 'clientType', 'requirePkce'];

export function OauthAppForm({
  app,
  onCreated,
  onSaved,
  onCancel,
}: {
  /** The app to edit; none to create one. */
  app?: OauthApp;
  onCreated?: (app: OauthApp & { clientSecret: string | null }) => void;
  onSaved?: (app: OauthApp) => void;
  onCancel: () => void;
}) {
  const [clientType, setClientType] = useState<'confidential' | 'public'>(app?.clientType ?? 'confidential');
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    const values = formValues(form);
    const input = {
      name: values.name ?? '',
      description: values.description ?? null,
      redirectUris: (values.redirectUris ?? '')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      scopes: checkedValues(form, 'scopes'),
      requirePkce: clientType === 'public' || values.requirePkce === 'on',
    };
    if (app) {
      const { updateOauthApp } = await graphql<{ updateOauthApp: OauthApp }>(UPDATE, { id: app.id, input });
      onSaved?.(updateOauthApp);
      return;
    }
    const { createOauthApp } = await graphql<{ createOauthApp: OauthApp & { clientSecret: string | null } }>(CREATE, {
      input: { ...input, clientType },
    });
    onCreated?.(createOauthApp);
  });
  const uriError = fieldError('redirectUris');
  return (
    <form
      class="stacked panel"
      aria-labelledby="app-form-title"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    >
      <h2 id="app-form-title">{app ? 'Details' : 'New OAuth app'}</h2>
      <Field
        label="Name"
        name="name"
        required
        defaultValue={app?.name}
        error={fieldError('name')}
        hint="Shown to users on the consent page."
      />
      <Field
        label="Description"
        name="description"
        defaultValue={app?.description ?? ''}
        error={fieldError('description')}
      />
      <div class={`field${uriError ? ' invalid' : ''}`}>
        <label for="field-redirectUris">Redirect URIs</label>
        <textarea
          id="field-redirectUris"
          name="redirectUris"
          rows={3}
          required
          defaultValue={app?.redirectUris.join('\n')}
          aria-invalid={uriError ? true : undefined}
          aria-describedby={`field-redirectUris-hint${uriError ? ' field-redirectUris-error' : ''}`}
        />
        <p class="hint" id="field-redirectUris-hint">
          One a line; matched exactly at /oauth/authorize.
        </p>
        {uriError && (
          <p class="field-error" id="field-redirectUris-error">
            {uriError}
          </p>
        )}
      </div>
      <ScopeChecks
        scopes={SCOPES.filter((scope) => scope !== 'admin')}
        legend="Scopes the app may ask for"
        checked={app?.scopes}
        error={fieldError('scopes')}
      />
      {app && (
        <p class="hint">
          Removing a scope narrows the tokens the app already holds at once. The client type (
          {app.clientType === 'public' ? 'public' : 'confidential'}) cannot change: make a new app for another.
        </p>
      )}
      <fieldset class="checks" hidden={!!app}>
        <legend>Client type</legend>
        <label>
          <input
            type="radio"
            name="clientType"
            value="confidential"
            checked={clientType === 'confidential'}
            onChange={() => setClientType('confidential')}
          />
          Confidential: a server that keeps a client secret
        </label>
        <label>
          <input
            type="radio"
            name="clientType"
            value="public"
            checked={clientType === 'public'}
            onChange={() => setClientType('public')}
          />
          Public: a browser or mobile app, no secret (PKCE required)
        </label>
      </fieldset>
      <div class="checks">
        <label>
          <input
            type="checkbox"
            name="requirePkce"
            defaultChecked={app?.requirePkce ?? true}
            disabled={clientType === 'public'}
          />
          Require PKCE on every authorization request
        </label>
      </div>
      <ErrorMessage error={formError(FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {app ? 'Save app' : 'Create app'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
