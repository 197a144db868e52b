import type { FeatureModule } from '../types';
import { adminActionsOf } from '../../../../shared/permissions';
import { UIDS } from '../../constants';
import { getConfig, getService } from '../../utils';
import contentTypes from './content-types';
import { SCRAPER_EVENTS } from './event-types';
import { registerChangeDetectionTables } from './content-types/tables';
import { registerTargetEntryTables } from './target/entries';
import contentManager from './content-types/views';
import adminController from './controllers/admin';
import scrapersController from './controllers/scrapers';
import { adminRoutes, contentApiRoutes } from './routes';
import { scraperResultsPurger } from './runs/purge-results';
import changeDetection from './services/change-detection';
import runs from './services/runs';
import scrapers from './services/scrapers';
import { scrapersApi } from './validation/contracts';
import { scrapersAccountPart } from './account-part';

/** What this feature registers; `getService` knows each one's type from here. */
const services = { scrapers, 'scraper-runs': runs, 'scraper-change-detection': changeDetection };

/**
 * Scraper control: registered scrapers crawled on demand and on schedule through the jobs port,
 * with their runs, results and run events, and change detection between completed runs.
 */
const feature: FeatureModule = {
  name: 'scrapers',
  register({ strapi }) {
    registerChangeDetectionTables(strapi);
    registerTargetEntryTables(strapi);
    getService(strapi, 'retention').add(scraperResultsPurger(strapi));
    getService(strapi, 'account-parts').add(scrapersAccountPart(strapi));
    getService(strapi, 'webhook-event-types').define(SCRAPER_EVENTS);
  },
  async bootstrap({ strapi }) {
    // A schedule changed or a scraper deleted in the admin panel follows on the jobs port.
    strapi.db.lifecycles.subscribe({
      models: [UIDS.scraper],
      async afterUpdate(event) {
        const row = event.result as { id?: number; schedule?: string | null } | undefined;
        if (row?.id) await getService(strapi, 'scrapers').syncSchedule({ id: row.id, schedule: row.schedule ?? null });
      },
      async afterDelete(event) {
        const id = (event.result as { id?: number } | undefined)?.id;
        if (id) await getService(strapi, 'scrapers').unschedule(id);
      },
    });
    // Runs started and schedules changed while Redis is away follow once it is back, in every process.
    getService(strapi, 'scraper-runs').watchQueue();
    if (getConfig(strapi).scrapers.worker) await getService(strapi, 'scraper-runs').start();
  },
  async destroy({ strapi }) {
    await getService(strapi, 'scraper-runs').stop();
  },
  contentTypes,
  contentManager,
  services,
  controllers: { scrapers: scrapersController, 'admin-scrapers': adminController },
  routes: { 'content-api': contentApiRoutes, admin: adminRoutes },
  api: scrapersApi,
  adminActions: adminActionsOf('scrapers'),
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
