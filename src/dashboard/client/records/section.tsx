// Navigation and routes made from the catalogue: a section per area (CRM, HR,
// Finance) with a link to each resource's list, and the generic pages of every
// resource (list, new, record, edit), which app.tsx matches after every
// section's own routes, so a desk's page of a resource wins over these. The
// old paths (/contacts, /deals) lead to their new ones.
import { useEffect } from 'preact/hooks';
import { navigate, useLocation } from '../route.js';
import type { PageProps, Route, Section } from '../section.js';
import { Loading } from '../ui.js';
import { CATALOGUE, title, type CatalogueResource } from './catalogue.js';
import { EditRecordPage, NewRecordPage } from './form.js';
import { RecordListPage } from './list.js';
import { RecordPage } from './record.js';

/** A section per area title (navigation.ts orders and merges them), each resource's list a link, in the catalogue's order. */
export function recordSections(catalogue: readonly CatalogueResource[]): Section[] {
  const titles = [...new Set(catalogue.map((entry) => entry.area.title))];
  return titles.map((sectionTitle) => ({
    title: sectionTitle,
    links: catalogue
      .filter((entry) => entry.area.title === sectionTitle)
      .map((entry) => ({ href: entry.path, label: title(entry), needs: entry.area.read })),
    routes: [],
  }));
}

/** The generic pages of every resource: `/crm/contacts`, `/crm/contacts/new`, `/crm/contacts/:id`, its edit. */
export function recordRoutes(catalogue: readonly CatalogueResource[]): Route[] {
  return catalogue.flatMap((entry) => {
    const routes: Route[] = [
      {
        path: entry.path,
        needs: entry.area.read,
        page: (props: PageProps) => <RecordListPage {...props} entry={entry} />,
      },
    ];
    if (entry.graphql.create) {
      routes.push({
        path: `${entry.path}/new`,
        needs: entry.area.write,
        page: (props: PageProps) => <NewRecordPage {...props} entry={entry} />,
      });
    }
    routes.push({
      path: `${entry.path}/:id`,
      needs: entry.area.read,
      page: (props: PageProps) => <RecordPage {...props} entry={entry} key={props.params.id} />,
    });
    if (entry.graphql.update) {
      routes.push({
        path: `${entry.path}/:id/edit`,
        needs: entry.area.write,
        page: (props: PageProps) => <EditRecordPage {...props} entry={entry} key={props.params.id} />,
      });
    }
    return routes;
  });
}

/** Goes to `to` (with the query the old path had) instead of adding a history entry. */
function redirectTo(to: (params: Record<string, string>) => string) {
  return function Redirect({ params }: PageProps) {
    const { query } = useLocation();
    useEffect(() => {
      const search = query.toString();
      navigate(to(params) + (search ? `?${search}` : ''), { replace: true });
    }, []);
    return <Loading />;
  };
}

/** The paths of the Data section before the record pages, kept working. */
const MOVED: [string, (params: Record<string, string>) => string][] = [
  ['/contacts', () => '/crm/contacts'],
  ['/contacts/new', () => '/crm/contacts/new'],
  ['/contacts/:id', ({ id }) => `/crm/contacts/${id}`],
  ['/contacts/:id/edit', ({ id }) => `/crm/contacts/${id}/edit`],
  ['/deals', () => '/crm/deals'],
  ['/deals/new', () => '/crm/deals/new'],
  ['/deals/:id', ({ id }) => `/crm/deals/${id}`],
  ['/deals/:id/edit', ({ id }) => `/crm/deals/${id}/edit`],
];

const sections = recordSections(CATALOGUE);
// The old paths lead to the new ones (the board's section keeps /pipeline's).
sections
  .find((section) => section.title === 'CRM')
  ?.routes.push(...MOVED.map(([path, to]) => ({ path, page: redirectTo(to) })));

/** The CRM, HR and Finance sections of what the viewer may read. */
export const RECORD_SECTIONS: Section[] = sections;

/** Matched last: every section's own routes first. */
export const RECORD_ROUTES: Route[] = recordRoutes(CATALOGUE);
