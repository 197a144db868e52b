import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { adminScraperContracts } from '../validation/admin-contracts';
import { scraperContracts } from '../validation/contracts';
import { inputs } from './inputs';

/** Mounted at /api/v1 (prefix ''), authenticated by the access guard like every /api/v1 route. */
const route = apiRoutes({ guarded: true, errors: errorsIn('nested-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route(scraperContracts.createScraper, 'scrapers.create', inputs.create),
  route(scraperContracts.listScrapers, 'scrapers.find', inputs.find),
  route(scraperContracts.getScraper, 'scrapers.findOne', inputs.api.one),
  route(scraperContracts.updateScraper, 'scrapers.update', inputs.api.update),
  route(scraperContracts.deleteScraper, 'scrapers.delete', inputs.api.one),
  route(scraperContracts.runScraper, 'scrapers.run', inputs.api.one),
  route(scraperContracts.stopScraper, 'scrapers.stop', inputs.api.one),
  route(scraperContracts.getScraperStatus, 'scrapers.status', inputs.api.one),
  route(scraperContracts.listScraperRuns, 'scrapers.runs', inputs.api.runs),
  route(scraperContracts.getScraperRun, 'scrapers.runOne', inputs.api.runOne),
  route(scraperContracts.listScraperResults, 'scrapers.results', inputs.api.results),
  route(scraperContracts.createRunEventsWebhook, 'scrapers.runEventsWebhook', inputs.runEventsWebhook),
];

const { scrapersRead: read, scrapersManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute(adminScraperContracts.find, 'admin-scrapers.find', [read], inputs.adminFind),
  adminRoute(adminScraperContracts.options, 'admin-scrapers.options', [read]),
  // Before /scrapers/:id, which would take its name for an id.
  adminRoute(adminScraperContracts.writtenBy, 'admin-scrapers.writtenBy', [read], inputs.adminWrittenBy),
  adminRoute(adminScraperContracts.create, 'admin-scrapers.create', [manage], inputs.adminCreate),
  adminRoute(adminScraperContracts.findOne, 'admin-scrapers.findOne', [read], inputs.admin.one),
  adminRoute(adminScraperContracts.update, 'admin-scrapers.update', [manage], inputs.admin.update),
  adminRoute(adminScraperContracts.delete, 'admin-scrapers.delete', [manage], inputs.admin.one),
  adminRoute(adminScraperContracts.run, 'admin-scrapers.run', [manage], inputs.admin.one),
  adminRoute(adminScraperContracts.stop, 'admin-scrapers.stop', [manage], inputs.admin.one),
  adminRoute(adminScraperContracts.runs, 'admin-scrapers.runs', [read], inputs.admin.runs),
  adminRoute(adminScraperContracts.runOne, 'admin-scrapers.runOne', [read], inputs.admin.runOne),
  adminRoute(adminScraperContracts.runWrites, 'admin-scrapers.runWrites', [read], inputs.admin.runWrites),
  adminRoute(adminScraperContracts.results, 'admin-scrapers.results', [read], inputs.admin.results),
];
