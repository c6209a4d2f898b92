// Settings → Your account, for everyone: their own password (the current one,
// then a new one under the API's rules, typed twice) and the browsers signed in
// as them, each of which they can sign out. A new password signs out every
// other session (the server does, with the OAuth grants); this one stays.
import { useState } from 'preact/hooks';
import { ApiError, graphql } from '../../api.js';
import type { PageProps } from '../../section.js';
import { ErrorMessage, Field, Loaded, PageHeader, formatDateTime, useQuery, useSubmit, type Query } from '../../ui.js';
import './account.css';

interface Session {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  endsAt: string;
  userAgent: string | null;
  current: boolean;
}

const SESSIONS = `query Sessions { sessions { id createdAt lastSeenAt endsAt userAgent current } }`;
const CHANGE = `mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
  changePassword(currentPassword: $currentPassword, newPassword: $newPassword) { id }
}`;
const END = `mutation EndSession($id: ID!) { endSession(id: $id) }`;
const END_OTHERS = `mutation EndOtherSessions { endOtherSessions }`;
const FIELDS = ['currentPassword', 'newPassword', 'repeatPassword'];

export function AccountPage({ viewer }: PageProps) {
  const sessions = useQuery<{ sessions: Session[] }>(SESSIONS);
  return (
    <>
      <PageHeader title="Your account" />
      <p class="muted">
        Signed in as <strong>{viewer.user?.email}</strong> in {viewer.organization.name}.
      </p>
      <PasswordForm onChanged={sessions.reload} />
      <Sessions sessions={sessions} />
    </>
  );
}

function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const [done, setDone] = useState(false);
  const { submit, busy, fieldError, formError } = useSubmit(async (form: HTMLFormElement) => {
    setDone(false);
    const data = new FormData(form);
    const value = (name: string) => String(data.get(name) ?? '');
    if (value('newPassword') !== value('repeatPassword')) {
      throw new ApiError('Type the same new password twice.', 'VALIDATION_ERROR', 'repeatPassword');
    }
    await graphql(CHANGE, { currentPassword: value('currentPassword'), newPassword: value('newPassword') });
    form.reset();
    setDone(true);
    onChanged();
  });
  return (
    <form
      class="stacked panel"
      aria-labelledby="password-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    >
      <h2 id="password-title">Change your password</h2>
      {done && (
        <p class="notice" role="status">
          Your password is changed. Every other browser signed in as you is signed out; this one stays signed in.
        </p>
      )}
      <ErrorMessage error={formError(FIELDS)} />
      <Field
        label="Current password"
        name="currentPassword"
        type="password"
        autocomplete="current-password"
        required
        error={fieldError('currentPassword')}
      />
      <Field
        label="New password"
        name="newPassword"
        type="password"
        autocomplete="new-password"
        required
        hint="At least 8 characters."
        error={fieldError('newPassword')}
      />
      <Field
        label="New password again"
        name="repeatPassword"
        type="password"
        autocomplete="new-password"
        required
        error={fieldError('repeatPassword')}
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

function Sessions({ sessions }: { sessions: Query<{ sessions: Session[] }> }) {
  const [notice, setNotice] = useState<string>();
  const end = useSubmit(async (session: Session) => {
    await graphql(END, { id: session.id });
    setNotice(`${browserOf(session.userAgent)} is signed out.`);
    sessions.reload();
  });
  const endOthers = useSubmit(async () => {
    const { endOtherSessions } = await graphql<{ endOtherSessions: number }>(END_OTHERS);
    setNotice(
      endOtherSessions === 1 ? '1 other session is signed out.' : `${endOtherSessions} other sessions are signed out.`,
    );
    sessions.reload();
  });
  return (
    <section class="panel account-sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorMessage error={end.error ?? endOthers.error} />
      <Loaded query={sessions}>
        {({ sessions: list }) => (
          <>
            <div class="table-wrap">
              <table class="stack-narrow">
                <caption class="visually-hidden">Your sessions, the most recently used first</caption>
                <thead>
                  <tr>
                    <th scope="col">Browser</th>
                    <th scope="col">Signed in</th>
                    <th scope="col">Last active</th>
                    <th scope="col">Ends unless used</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((session) => (
                    <tr key={session.id}>
                      <td data-label="Browser">
                        {browserOf(session.userAgent)}
                        {session.current && <div class="muted">This browser</div>}
                      </td>
                      <td data-label="Signed in">{formatDateTime(session.createdAt)}</td>
                      <td data-label="Last active">{formatDateTime(session.lastSeenAt)}</td>
                      <td data-label="Ends unless used">{formatDateTime(session.endsAt)}</td>
                      <td>
                        {!session.current && (
                          <button
                            type="button"
                            class="secondary small"
                            disabled={end.busy}
                            onClick={() => void end.submit(session)}
                          >
                            Sign out
                            <span class="visually-hidden">
                              {' '}
                              {browserOf(session.userAgent)}, signed in {formatDateTime(session.createdAt)}
                            </span>
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {list.length > 1 && (
              <div class="actions">
                <button
                  type="button"
                  class="secondary"
                  disabled={endOthers.busy}
                  onClick={() => void endOthers.submit()}
                >
                  Sign out every other session
                </button>
              </div>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

/** "Chrome on Linux" from a User-Agent: enough to tell one's browsers apart. */
export function browserOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl\//.test(userAgent)
            ? 'curl'
            : 'A browser';
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Android/.test(userAgent)
          ? 'Android'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  return system ? `${browser} on ${system}` : browser;
}
