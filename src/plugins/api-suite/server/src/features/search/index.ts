import type { FeatureModule } from '../types';
import { getService } from '../../utils';
import searchController from './controllers/search';
import { contentApiRoutes } from './routes';
import search from './services/search';

/** Search across the site's published content (docs/search-feed-cors.md#search), collections from the plugin config. */
const feature: FeatureModule = {
  name: 'search',
  bootstrap({ strapi }) {
    getService(strapi, 'search').prepare();
  },
  services: { search },
  controllers: { search: searchController },
  routes: { 'content-api': contentApiRoutes },
};

export default feature;
