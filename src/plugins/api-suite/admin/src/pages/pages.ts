import type { Feature } from '../permissions';

/**
 * The plugin's pages, in menu order: each is one entry in the side navigation and one route
 * under /admin/plugins/api-suite. A feature adds its page here, its permissions in
 * `permissions.ts`, and its element in `App.tsx`.
 */
export interface PluginPage {
  /** Route below plugins/api-suite ('' for the overview). */
  path: string;
  /** Translation key of the navigation label. */
  label: string;
  /** The feature whose `read` permission shows the page; none for the overview. */
  feature?: Feature;
}

export const PAGES: PluginPage[] = [
  { path: '', label: 'nav.overview' },
  { path: 'webhooks', label: 'nav.webhooks', feature: 'webhooks' },
  { path: 'scrapers', label: 'nav.scrapers', feature: 'scrapers' },
  { path: 'access', label: 'nav.access', feature: 'access' },
  { path: 'sales', label: 'nav.sales', feature: 'sales' },
];
