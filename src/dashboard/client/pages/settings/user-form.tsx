// Inviting a user (email, name, a first password, role, a member's scopes) and
// changing one's role and scopes; the API's messages appear beside the fields.
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { navigate } from '../../route.js';
import type { PageProps } from '../../section.js';
import { checkedValues, ErrorMessage, Field, Link, Loaded, PageHeader, Select, useQuery, useSubmit } from '../../ui.js';
import { grantableScopes, ScopeChecks } from '../../scopes.js';
import { USER_FIELDS, type User } from './users.js';

const FIELDS = ['email', 'name', 'password', 'role', 'scopes'];
const CREATE = `mutation CreateUser($input: CreateUserInput!) { createUser(input: $input) { id } }`;
const UPDATE = `mutation UpdateUser($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id } }`;

export function NewUserPage(props: PageProps) {
  return (
    <>
      <PageHeader title="Invite user" />
      <UserForm {...props} />
    </>
  );
}

export function EditUserPage(props: PageProps) {
  const result = useQuery<{ user: User }>(`query User($id: ID!) { user(id: $id) { ${USER_FIELDS} } }`, {
    id: props.params.id,
  });
  return (
    <Loaded query={result}>
      {({ user }) => (
        <>
          <PageHeader title={`Edit ${user.email}`} />
          <UserForm {...props} user={user} />
        </>
      )}
    </Loaded>
  );
}

function UserForm({ viewer, user }: PageProps & { user?: User }) {
  const [role, setRole] = useState(user?.role ?? 'member');
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const input: Record<string, unknown> = {
      email: text('email'),
      name: text('name') || (user ? null : undefined),
      role,
    };
    // An admin holds every scope: the API takes none for one.
    if (role === 'member') input.scopes = checkedValues(form, 'scopes');
    if (text('password') || !user) input.password = data.get('password');
    if (user) await graphql(UPDATE, { id: user.id, input });
    else await graphql(CREATE, { input });
    navigate('/settings/users');
  });
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit(event.currentTarget as HTMLFormElement);
  };
  return (
    <form class="stacked panel" onSubmit={onSubmit} noValidate>
      <ErrorMessage error={formError(FIELDS)} />
      <Field label="Email" name="email" type="email" required defaultValue={user?.email} error={fieldError('email')} />
      <Field label="Name" name="name" defaultValue={user?.name ?? ''} error={fieldError('name')} />
      <Field
        label={user ? 'New password (optional)' : 'First password'}
        name="password"
        type="password"
        autocomplete="new-password"
        required={!user}
        hint="At least 8 characters. Give it to them privately; they sign in with it."
        error={fieldError('password')}
      />
      <Select
        label="Role"
        name="role"
        value={role}
        options={[
          { value: 'member', label: 'Member (the scopes below)' },
          { value: 'admin', label: 'Admin (every scope)' },
        ]}
        onChange={(event) => setRole(event.currentTarget.value)}
        error={fieldError('role')}
      />
      {role === 'member' && (
        <ScopeChecks
          legend="Member's scopes"
          scopes={grantableScopes(viewer).filter((scope) => scope !== 'admin')}
          checked={user?.scopes ?? []}
          error={fieldError('scopes')}
        />
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : user ? 'Save user' : 'Invite user'}
        </button>
        <Link class="button secondary" href="/settings/users">
          Cancel
        </Link>
      </div>
    </form>
  );
}
