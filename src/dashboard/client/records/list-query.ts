// A resource's list as the URL asks for it, and the GraphQL query that reads it:
// the shared module's (src/dashboard/list-operation.ts, which the server uses for
// the answer it writes into a full load's page), over the catalogue the page carries.
import { listQuery as listQueryOf } from '../../list-operation.js';
import { resourceOf, type CatalogueResource } from './catalogue.js';

export { filtersOf, listVariables, PAGE_SIZE, sortOf } from '../../list-operation.js';

export const listQuery = (entry: CatalogueResource) => listQueryOf(entry, resourceOf);
