// The dashboard's frame: who is signed in (the viewer the page carries), the navigation
// of each section the viewer may see, the page of the current path, and a
// clear message when the session has ended.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { onSessionEnded } from './api.js';
import { mergeSections } from './navigation.js';
import { pageData } from './page-data.js';
import { developersSection } from './pages/developers/section.js';
import { financeDesk } from './pages/finance/section.js';
import { hrDesk } from './pages/hr/section.js';
import { OverviewPage } from './pages/overview/overview.js';
import { salesDesk } from './pages/sales/section.js';
import { settingsSection } from './pages/settings/section.js';
import { RECORD_ROUTES, RECORD_SECTIONS } from './records/section.js';
import { BASE, match, useLocation } from './route.js';
import { can, type Route, type Section, type Viewer } from './section.js';
import { ErrorMessage, Link, useEscapeCloses } from './ui.js';

// The desks' sections go before RECORD_SECTIONS: sections of one title merge, a desk's links first.
const SECTIONS: Section[] = mergeSections([
  salesDesk,
  hrDesk,
  financeDesk,
  ...RECORD_SECTIONS,
  settingsSection,
  developersSection,
]);
const HOME: Route = { path: '/', page: OverviewPage };
/** Every section's own routes, then the generic record pages of every resource (records/section.tsx). */
const ROUTES: Route[] = [HOME, ...SECTIONS.flatMap((section) => section.routes), ...RECORD_ROUTES];

/**
 * Who is signed in, written into the page by the server (src/dashboard/page-viewer.ts,
 * what /graphql's `viewer` answers): the frame and the page's own request start
 * without waiting for a first round trip.
 */
const VIEWER = pageData<Viewer | undefined>('viewer', undefined);

const csrf = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

export function App() {
  const [sessionEnded, setSessionEnded] = useState(false);
  // Listening from the first render on: the page's request starts in that render's commit too.
  useLayoutEffect(() => onSessionEnded(() => setSessionEnded(true)), []);
  if (sessionEnded) return <SessionEnded />;
  if (!VIEWER) return <ErrorMessage error="This page came without its viewer: reload it." />;
  return <Frame viewer={VIEWER} />;
}

function SessionEnded() {
  return (
    <main class="session-ended">
      <h1>Your session has ended</h1>
      <p role="alert">
        You were signed out: in another tab, after a while without activity, or because your password or access changed.
        Nothing you saved is lost.
      </p>
      <p>
        <a class="button" href={location.pathname + location.search}>
          Sign in again
        </a>
      </p>
    </main>
  );
}

function Frame({ viewer }: { viewer: Viewer }) {
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEscapeCloses(menuOpen, () => {
    setMenuOpen(false);
    menuButton.current?.focus();
  });
  let found: { route: Route; params: Record<string, string> } | undefined;
  for (const route of ROUTES) {
    const params = match(route.path, path);
    if (params) {
      found = { route, params };
      break;
    }
  }
  // In the render's commit, not after the paint: a user who starts typing at once keeps the focus.
  useLayoutEffect(() => {
    setMenuOpen(false);
    // A new page: its heading gets focus, so keyboard and screen reader users start there.
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [path]);
  const Page = found?.route.page;
  const allowed = found && can(viewer, found.route.needs);
  return (
    <div class="frame">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/" class="brand">
          {viewer.organization.name}
        </Link>
        <button
          type="button"
          ref={menuButton}
          class="menu-toggle secondary"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <div class="who">
          <span>
            {viewer.user ? <Link href="/settings/account">{viewer.user.email}</Link> : null} ·{' '}
            <span class="role">{viewer.user?.role}</span>
          </span>
          <form method="post" action="/oauth/sign-out">
            <input type="hidden" name="csrf_token" value={csrf()} />
            <input type="hidden" name="continue" value={BASE} />
            <button type="submit" class="secondary small">
              Sign out
            </button>
          </form>
        </div>
      </header>
      <nav id="nav" class={menuOpen ? 'open' : ''} aria-label="Dashboard">
        {SECTIONS.map((section) => {
          const links = section.links.filter((link) => can(viewer, link.needs));
          if (!links.length) return null;
          return (
            <div class="nav-section" key={section.title}>
              <h2>{section.title}</h2>
              <ul>
                {links.map((link) => (
                  <li key={link.href}>
                    <Link
                      href={link.href}
                      aria-current={path === link.href || path.startsWith(link.href + '/') ? 'page' : undefined}
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
        <div class="nav-section">
          <h2>Reference</h2>
          <ul>
            <li>
              <a href="/docs">API reference</a>
            </li>
          </ul>
        </div>
      </nav>
      <main id="main" ref={main}>
        {!Page && <NotFound />}
        {Page && !allowed && <NotAllowed scope={found!.route.needs!} />}
        {Page && allowed && <Page viewer={viewer} params={found!.params} />}
      </main>
    </div>
  );
}

function NotFound() {
  return (
    <>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        There is no dashboard page here. <Link href="/">Go to the overview</Link>.
      </p>
    </>
  );
}

function NotAllowed({ scope }: { scope: string }) {
  return (
    <>
      <h1 tabIndex={-1}>Not available to you</h1>
      <p>
        This page needs the <code>{scope}</code> scope, which your account does not hold. An administrator can grant it.
      </p>
    </>
  );
}
