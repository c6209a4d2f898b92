import { defineModule } from '../../kit/module.js';
import { DealPipelineResolver } from './resolver.js';
import { DealPipelineService } from './service.js';

/** GraphQL only (the dashboard): no REST route. */
export const dealPipelineModule = defineModule({
  resolvers: [DealPipelineResolver],
  routes: [],
  services: { dealPipeline: (deps) => new DealPipelineService(deps) },
});
