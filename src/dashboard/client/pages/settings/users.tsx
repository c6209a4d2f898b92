// Settings → Users (admins): who may sign in to the organization, with their
// role and scopes; invite, edit and remove (after a confirmation).
import { graphql } from '../../api.js';
import { setQuery, useLocation } from '../../route.js';
import type { PageProps } from '../../section.js';
import {
  CodeTags,
  ConfirmButton,
  ErrorMessage,
  formatDateTime,
  Link,
  Loaded,
  PageHeader,
  Pager,
  useQuery,
  useSubmit,
} from '../../ui.js';

export interface User {
  id: string;
  email: string;
  name: string | null;
  role: string;
  scopes: string[];
  createdAt: string;
}

export const USER_FIELDS = 'id email name role scopes createdAt';

const USERS = `query Users($page: Int) {
  users(page: $page, limit: 20, sort: email) { data { ${USER_FIELDS} } pagination { page limit total } }
}`;
const DELETE = `mutation DeleteUser($id: ID!) { deleteUser(id: $id) }`;

export function UsersPage({ viewer }: PageProps) {
  const { query } = useLocation();
  const users = useQuery<{ users: { data: User[]; pagination: { page: number; limit: number; total: number } } }>(
    USERS,
    {
      page: Number(query.get('page')) || 1,
    },
  );
  const remove = useSubmit(async (user: User) => {
    await graphql(DELETE, { id: user.id });
    users.reload();
  });
  return (
    <>
      <PageHeader title="Users">
        <Link class="button" href="/settings/users/new">
          Invite user
        </Link>
      </PageHeader>
      <ErrorMessage error={remove.error} />
      <Loaded query={users}>
        {({ users: page }) => (
          <>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Email</th>
                    <th>Name</th>
                    <th>Role</th>
                    <th>Scopes</th>
                    <th>Created</th>
                    <th>
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((user) => (
                    <tr key={user.id}>
                      <th scope="row">
                        <Link href={`/settings/users/${user.id}`}>{user.email}</Link>
                      </th>
                      <td>{user.name ?? '—'}</td>
                      <td>{user.role}</td>
                      <td>
                        <CodeTags values={user.scopes} />
                      </td>
                      <td>{formatDateTime(user.createdAt)}</td>
                      <td>
                        {user.id !== viewer.user?.id && (
                          <ConfirmButton
                            class="danger small"
                            question={`Remove ${user.email}? They can no longer sign in and their API keys stop working.`}
                            onConfirm={() => remove.submit(user)}
                          >
                            Remove<span class="visually-hidden"> {user.email}</span>
                          </ConfirmButton>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager {...page.pagination} onPage={(next) => setQuery({ page: next })} />
          </>
        )}
      </Loaded>
    </>
  );
}
