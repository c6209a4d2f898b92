// The CRM desk's part of the navigation: the pipeline board. The old path
// /pipeline (the summary cards it replaces) leads here.
import type { Section } from '../../section.js';
import { PipelineBoardPage } from './board.js';
import { RedirectTo } from './redirect.js';

export const salesDesk: Section = {
  title: 'CRM',
  links: [{ href: '/crm/pipeline', label: 'Pipeline', needs: 'crm:read' }],
  routes: [
    { path: '/crm/pipeline', page: PipelineBoardPage, needs: 'crm:read' },
    { path: '/pipeline', page: RedirectTo('/crm/pipeline'), needs: 'crm:read' },
  ],
};
