import type { FeatureModule } from '../types';
import { getService } from '../../utils';
import searchController from './controllers/search';
import { contentApiRoutes } from './routes';
import search from './services/search';

/** What this feature registers; `getService` knows each one's type from here. */
const services = { search };

/** Search across the site's published content (docs/search-feed-cors.md#search), collections from the plugin config. */
const feature: FeatureModule = {
  name: 'search',
  bootstrap({ strapi }) {
    getService(strapi, 'search').prepare();
  },
  services,
  controllers: { search: searchController },
  routes: { 'content-api': contentApiRoutes },
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
