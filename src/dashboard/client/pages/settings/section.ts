// The Settings section: API Keys and Users. Every operation behind them needs
// `admin` on the server (the API-key and user resolvers), so their links and
// pages are shown to admins only.
import type { Section } from '../../section.js';
import { NewApiKeyPage } from './api-key-form.js';
import { ApiKeysPage } from './api-keys.js';
import { EditUserPage, NewUserPage } from './user-form.js';
import { UsersPage } from './users.js';

export const settingsSection: Section = {
  title: 'Settings',
  links: [
    { href: '/settings/api-keys', label: 'API Keys', needs: 'admin' },
    { href: '/settings/users', label: 'Users', needs: 'admin' },
  ],
  routes: [
    { path: '/settings/api-keys', page: ApiKeysPage, needs: 'admin' },
    { path: '/settings/api-keys/new', page: NewApiKeyPage, needs: 'admin' },
    { path: '/settings/users', page: UsersPage, needs: 'admin' },
    { path: '/settings/users/new', page: NewUserPage, needs: 'admin' },
    { path: '/settings/users/:id', page: EditUserPage, needs: 'admin' },
  ],
};
