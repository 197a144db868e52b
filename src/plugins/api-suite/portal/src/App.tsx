import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { BrowserRouter, Navigate, NavLink, Route, Routes, useLocation } from 'react-router-dom';
import { AuthProvider, useAuth } from './auth';
import type { PortalSettings } from './settings';
import { SignIn } from './pages/SignIn';
import { Overview } from './pages/Overview';
import { Keys } from './pages/Keys';
import { Billing } from './pages/Billing';
import { Webhooks } from './pages/Webhooks';
import { Endpoint } from './pages/Webhooks/Endpoint';
import { EventCatalog } from './pages/Webhooks/EventCatalog';
import { Scrapers } from './pages/Scrapers';
import { ScraperPage } from './pages/Scrapers/Scraper';
import { Account } from './pages/Account';
import { Loading } from './components/feedback';

// The API reference is the largest page and the least visited: a file of its own, fetched on first opening.
const Reference = lazy(() => import('./pages/Reference'));

export function App({ settings }: { settings: PortalSettings }) {
  return (
    <AuthProvider>
      <BrowserRouter basename={settings.basePath}>
        <Routes>
          <Route path="/sign-in" element={<SignIn settings={settings} mode="sign-in" />} />
          <Route path="/sign-up" element={<SignIn settings={settings} mode="sign-up" />} />
          <Route path="/*" element={<SignedInArea settings={settings} />} />
        </Routes>
      </BrowserRouter>
    </AuthProvider>
  );
}

const NAV = [
  { to: '/', label: 'Overview', end: true },
  { to: '/keys', label: 'Keys' },
  { to: '/billing', label: 'Plans and billing' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/scrapers', label: 'Scrapers' },
  { to: '/reference', label: 'API reference' },
  { to: '/account', label: 'Account' },
];

/** Every page but sign-in: the header, the navigation, and the page; without a session, the sign-in page. */
function SignedInArea({ settings }: { settings: PortalSettings }) {
  // On a narrow screen the tabs are one row that scrolls sideways: the current one is kept in view.
  // (The row itself is scrolled, never the page.)
  const tabs = useRef<HTMLElement>(null);
  const { user, signOut } = useAuth();
  const location = useLocation();
  useEffect(() => {
    const row = tabs.current;
    const active = row?.querySelector<HTMLElement>('.tab-active');
    if (!row || !active) return;
    const start = active.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
    if (start < row.scrollLeft || start + active.offsetWidth > row.scrollLeft + row.clientWidth)
      row.scrollLeft = Math.max(0, start - (row.clientWidth - active.offsetWidth) / 2);
  }, [location.pathname]);
  if (!user) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">{settings.title}</span>
        <span className="who">
          <span className="who-name">{user.username}</span>
          <button type="button" className="button button-secondary" onClick={() => signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <nav className="tabs" aria-label="Portal" ref={tabs}>
        {NAV.map((item) => (
          <NavLink key={item.to} to={item.to} end={item.end} className={({ isActive }) => `tab${isActive ? ' tab-active' : ''}`}>
            {item.label}
          </NavLink>
        ))}
      </nav>
      <Main title={settings.title}>
        <Routes>
          <Route index element={<Overview />} />
          <Route path="keys" element={<Keys />} />
          <Route path="billing" element={<Billing />} />
          <Route path="webhooks" element={<Webhooks />} />
          <Route path="webhooks/event-types" element={<EventCatalog />} />
          <Route path="webhooks/:id" element={<Endpoint />} />
          <Route path="scrapers" element={<Scrapers />} />
          <Route path="scrapers/:id" element={<ScraperPage />} />
          <Route path="account" element={<Account />} />
          <Route
            path="reference"
            element={
              <Suspense fallback={<Loading label="Loading the API reference…" />}>
                <Reference />
              </Suspense>
            }
          />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Main>
    </div>
  );
}

/**
 * Moves focus to the page's heading on navigation, so keyboard and screen-reader users land on the
 * new page. A page loaded on first opening (the API reference) has no heading until its file
 * arrives: the heading is then awaited.
 */
function Main({ title, children }: { title: string; children: ReactNode }) {
  const location = useLocation();
  const ref = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    const focus = !first.current;
    first.current = false;
    const arrive = (heading: HTMLHeadingElement) => {
      document.title = `${heading.textContent ?? ''} · ${title}`;
      if (!focus) return;
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    };
    const main = ref.current;
    const heading = main?.querySelector('h1');
    if (heading || !main) {
      if (heading) arrive(heading);
      return undefined;
    }
    const watch = new MutationObserver(() => {
      const found = main.querySelector('h1');
      if (!found) return;
      watch.disconnect();
      arrive(found);
    });
    watch.observe(main, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [location.pathname, title]);
  return (
    <main id="main" ref={ref} className="page">
      {children}
    </main>
  );
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        This page does not exist. <NavLink to="/">Go to the overview</NavLink>.
      </p>
    </>
  );
}
