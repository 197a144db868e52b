import type { Core } from '@strapi/strapi';
import type { OpenApiService } from './plugins/api-suite/server/src/features/platform/services/openapi';
import type { ContentManagerViewsService } from './plugins/api-suite/server/src/features/platform/services/content-manager-views';
import { contentManagerViews } from './bootstrap/content-manager-views';
import { seedDemoConsumer } from './bootstrap/demo-consumer';
import { seedDemoData } from './bootstrap/demo-data';
import { seedDemoScraper } from './bootstrap/demo-scraper';
import { grantPublicReadOnce } from './bootstrap/public-permissions';
import { articlesApi } from './api/article/validation/openapi';
import { enforceVisibility } from './lib/visibility';

export default {
  register({ strapi }: { strapi: Core.Strapi }) {
    enforceVisibility(strapi);
    // The articles' routes in the plugin's OpenAPI document (GET /api/v1/openapi.json).
    (strapi.plugin('api-suite').service('openapi') as OpenApiService).add(articlesApi);
    // How the Content Manager shows the site's content: the plugin writes every declared view.
    const views = strapi.plugin('api-suite').service('content-manager-views') as ContentManagerViewsService;
    for (const [uid, view] of Object.entries(contentManagerViews)) views.add(uid, view);
  },

  async bootstrap({ strapi }: { strapi: Core.Strapi }) {
    await grantPublicReadOnce(strapi);
    if (shouldSeedDemoData()) {
      await seedDemoData(strapi);
      await seedDemoConsumer(strapi);
      seedDemoScraper(strapi);
    }
  },
};

/** SEED_DEMO_DATA wins when set; otherwise demo content only in development, never in tests or production. */
function shouldSeedDemoData(): boolean {
  const setting = process.env.SEED_DEMO_DATA;
  if (setting !== undefined && setting !== '') return /^(true|1|yes)$/i.test(setting);
  return (process.env.NODE_ENV ?? 'development') === 'development';
}
