import { Divider } from '@strapi/design-system';
import { Layouts, Page, SubNav, useAuth } from '@strapi/strapi/admin';
import { Route, Routes } from 'react-router-dom';
import { PERMISSIONS } from '../permissions';
import { PLUGIN_ID } from '../pluginId';
import { useT } from '../utils/useT';
import { AccessPage } from './Access';
import { OverviewPage } from './Overview';
import { PAGES } from './pages';
import { SalesPage } from './Sales';
import { ScraperPage } from './Scrapers/Scraper';
import { ScrapersPage } from './Scrapers';
import { SubscriptionPage } from './Webhooks/Subscription';
import { WebhooksPage } from './Webhooks';

/** The plugin's admin pages under /admin/plugins/api-suite, each behind its read permission. */
export const App = () => (
  <Layouts.Root sideNav={<PluginNav />}>
    <Routes>
      <Route index element={<OverviewPage />} />
      <Route path="webhooks" element={<Protected feature="webhooks" element={<WebhooksPage />} />} />
      <Route path="webhooks/subscriptions/:id" element={<Protected feature="webhooks" element={<SubscriptionPage />} />} />
      <Route path="scrapers" element={<Protected feature="scrapers" element={<ScrapersPage />} />} />
      <Route path="scrapers/:id" element={<Protected feature="scrapers" element={<ScraperPage />} />} />
      <Route path="access" element={<Protected feature="access" element={<AccessPage />} />} />
      <Route path="sales" element={<Protected feature="sales" element={<SalesPage />} />} />
      <Route path="*" element={<Page.Error />} />
    </Routes>
  </Layouts.Root>
);

function Protected({ feature, element }: { feature: keyof typeof PERMISSIONS; element: JSX.Element }) {
  return <Page.Protect permissions={[...PERMISSIONS[feature].read]}>{element}</Page.Protect>;
}

/** The side navigation: the pages this editor may read. */
function PluginNav() {
  const t = useT();
  const held = useAuth('ApiSuiteNav', (state) => state.permissions);
  const mayRead = (feature: keyof typeof PERMISSIONS) =>
    PERMISSIONS[feature].read.every(({ action }) => held.some((permission) => permission.action === action));
  const visible = PAGES.filter((page) => !page.feature || mayRead(page.feature));
  return (
    <SubNav.Main aria-label={t('plugin.name')}>
      <SubNav.Header label={t('plugin.name')} />
      <Divider />
      <SubNav.Content>
        <SubNav.Sections>
          {[
            <SubNav.Section key="pages" label={t('nav.section')}>
              {visible.map((page) => (
                <SubNav.Link
                  key={page.path}
                  to={`/plugins/${PLUGIN_ID}${page.path ? `/${page.path}` : ''}`}
                  end={page.path === ''}
                  label={t(page.label)}
                />
              ))}
            </SubNav.Section>,
          ]}
        </SubNav.Sections>
      </SubNav.Content>
    </SubNav.Main>
  );
}
