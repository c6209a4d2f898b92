// A new OAuth app: name, description, redirect URIs (one a line), the scopes
// it may ask for, public or confidential, and whether PKCE is required.
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { ErrorMessage, Field, checkedValues, formValues, useSubmit } from '../../ui.js';
import type { OauthApp } from './oauth-apps.js';
import { ScopeChecks } from '../../scopes.js';
import { SCOPES } from '../../../../auth/scopes.js';

const CREATE = `mutation CreateOauthApp($input: CreateOauthAppInput!) {
  createOauthApp(input: $input) { id name description clientId clientType requirePkce redirectUris scopes createdAt clientSecret }
}`;

const FIELDS = ['name', 'description', 'redirectUris', 'scopes', 'clientType', 'requirePkce'];

export function OauthAppForm({
  onCreated,
  onCancel,
}: {
  onCreated: (app: OauthApp & { clientSecret: string | null }) => void;
  onCancel: () => void;
}) {
  const [clientType, setClientType] = useState<'confidential' | 'public'>('confidential');
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
      clientType,
      requirePkce: clientType === 'public' || values.requirePkce === 'on',
    };
    const { createOauthApp } = await graphql<{ createOauthApp: OauthApp & { clientSecret: string | null } }>(CREATE, {
      input,
    });
    onCreated(createOauthApp);
  });
  const uriError = fieldError('redirectUris');
  return (
    <form
      class="stacked panel"
      aria-labelledby="new-app-title"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    >
      <h2 id="new-app-title">New OAuth app</h2>
      <Field label="Name" name="name" required error={fieldError('name')} hint="Shown to users on the consent page." />
      <Field label="Description" name="description" error={fieldError('description')} />
      <div class={`field${uriError ? ' invalid' : ''}`}>
        <label for="field-redirectUris">Redirect URIs</label>
        <textarea
          id="field-redirectUris"
          name="redirectUris"
          rows={3}
          required
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
        error={fieldError('scopes')}
      />
      <fieldset class="checks">
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
          <input type="checkbox" name="requirePkce" defaultChecked disabled={clientType === 'public'} />
          Require PKCE on every authorization request
        </label>
      </div>
      <ErrorMessage error={formError(FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Create app
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
