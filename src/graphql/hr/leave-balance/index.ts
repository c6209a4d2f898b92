import { defineModule } from '../../kit/module.js';
import { LeaveBalanceResolver } from './resolver.js';
import { leaveBalanceRoutes } from './routes.js';
import { LeaveBalanceService } from './service.js';

/** Computed from the leave policies and requests: GET /hr/employees/:id/leave-balances and `leaveBalances`. */
export const leaveBalanceModule = defineModule({
  resolvers: [LeaveBalanceResolver],
  routes: leaveBalanceRoutes,
  services: { leaveBalances: (deps) => new LeaveBalanceService(deps) },
});
