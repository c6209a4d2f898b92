// The Developers section of the navigation and its pages: OAuth apps,
// webhooks and their deliveries, admin-only on the server (every operation
// needs `admin`), and the events (any credential reads those of its scopes; the
// page is the developers', next to what delivers them).
import type { Section } from '../../section.js';
import { DeliveryPage } from './delivery-detail.js';
import { EventsPage } from './events.js';
import { OauthAppPage, OauthAppsPage } from './oauth-apps.js';
import { WebhookPage } from './webhook-detail.js';
import { WebhooksPage } from './webhooks.js';

export const developersSection: Section = {
  title: 'Developers',
  links: [
    { href: '/developers/oauth-apps', label: 'OAuth apps', needs: 'admin' },
    { href: '/developers/webhooks', label: 'Webhooks', needs: 'admin' },
    { href: '/developers/events', label: 'Events', needs: 'admin' },
  ],
  routes: [
    { path: '/developers/oauth-apps', page: OauthAppsPage, needs: 'admin' },
    { path: '/developers/webhooks', page: WebhooksPage, needs: 'admin' },
    { path: '/developers/oauth-apps/:id', page: OauthAppPage, needs: 'admin' },
    { path: '/developers/webhooks/:id', page: WebhookPage, needs: 'admin' },
    { path: '/developers/webhooks/:id/deliveries/:deliveryId', page: DeliveryPage, needs: 'admin' },
    { path: '/developers/events', page: EventsPage, needs: 'admin' },
  ],
};
