// The Settings section: everyone's own account (password, sessions), and for
// admins API Keys and Users, whose every operation needs `admin` on the server
// (the API-key and user resolvers), so their links and pages are shown to admins only.
import type { Section } from '../../section.js';
import { AccountPage } from './account.js';
import { NewApiKeyPage } from './api-key-form.js';
import { ApiKeysPage } from './api-keys.js';
import { EditUserPage, NewUserPage } from './user-form.js';
import { UsersPage } from './users.js';

export const settingsSection: Section = {
  title: 'Settings',
  links: [
    { href: '/settings/account', label: 'Your account' },
    { href: '/settings/api-keys', label: 'API Keys', needs: 'admin' },
    { href: '/settings/users', label: 'Users', needs: 'admin' },
  ],
  routes: [
    { path: '/settings/account', page: AccountPage },
    { path: '/settings/api-keys', page: ApiKeysPage, needs: 'admin' },
    { path: '/settings/api-keys/new', page: NewApiKeyPage, needs: 'admin' },
    { path: '/settings/users', page: UsersPage, needs: 'admin' },
    { path: '/settings/users/new', page: NewUserPage, needs: 'admin' },
    { path: '/settings/users/:id', page: EditUserPage, needs: 'admin' },
  ],
};
