// The Developers section of the navigation and its pages: OAuth apps and
// webhooks, both admin-only on the server (every operation needs `admin`).
import type { Section } from '../../section.js';
import { OauthAppsPage } from './oauth-apps.js';
import { WebhookPage } from './webhook-detail.js';
import { WebhooksPage } from './webhooks.js';

export const developersSection: Section = {
  title: 'Developers',
  links: [
    { href: '/developers/oauth-apps', label: 'OAuth apps', needs: 'admin' },
    { href: '/developers/webhooks', label: 'Webhooks', needs: 'admin' },
  ],
  routes: [
    { path: '/developers/oauth-apps', page: OauthAppsPage, needs: 'admin' },
    { path: '/developers/webhooks', page: WebhooksPage, needs: 'admin' },
    { path: '/developers/webhooks/:id', page: WebhookPage, needs: 'admin' },
  ],
};
