import { defineModule } from '../../kit/module.js';
import { UserResolver } from './resolver.js';
import { userRoutes } from './routes.js';
import { UserService } from './service.js';

export const userModule = defineModule({
  resolvers: [UserResolver],
  routes: userRoutes,
  services: { users: (deps) => new UserService(deps) },
});
