import { defineModule } from '../../kit/module.js';
import { SessionService } from './service.js';

/** No API of its own: the sign-in pages (src/oauth/session) use it. */
export const sessionModule = defineModule({
  resolvers: [],
  routes: [],
  services: { sessions: (deps) => new SessionService(deps) },
});
