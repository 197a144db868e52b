import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { inputs } from './inputs';

/** Mounted at /api/v1 (prefix ''), authenticated by the access guard like every /api/v1 route. */
const route = apiRoutes({ guarded: true, errors: errorsIn('nested-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route('POST', '/v1/scrapers', 'scrapers.create', inputs.create),
  route('GET', '/v1/scrapers', 'scrapers.find', inputs.find),
  route('GET', '/v1/scrapers/:id', 'scrapers.findOne', inputs.api.one),
  route('PATCH', '/v1/scrapers/:id', 'scrapers.update', inputs.api.update),
  route('DELETE', '/v1/scrapers/:id', 'scrapers.delete', inputs.api.one),
  route('POST', '/v1/scrapers/:id/run', 'scrapers.run', inputs.api.one),
  route('POST', '/v1/scrapers/:id/stop', 'scrapers.stop', inputs.api.one),
  route('GET', '/v1/scrapers/:id/status', 'scrapers.status', inputs.api.one),
  route('GET', '/v1/scrapers/:id/runs', 'scrapers.runs', inputs.api.runs),
  route('GET', '/v1/scrapers/:id/runs/:runId', 'scrapers.runOne', inputs.api.runOne),
  route('GET', '/v1/scrapers/:id/results', 'scrapers.results', inputs.api.results),
  route('POST', '/v1/webhooks', 'scrapers.runEventsWebhook', inputs.runEventsWebhook),
];

const { scrapersRead: read, scrapersManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/scrapers', 'admin-scrapers.find', [read], inputs.adminFind),
  adminRoute('GET', '/scrapers/options', 'admin-scrapers.options', [read]),
  adminRoute('POST', '/scrapers', 'admin-scrapers.create', [manage], inputs.adminCreate),
  adminRoute('GET', '/scrapers/:id', 'admin-scrapers.findOne', [read], inputs.admin.one),
  adminRoute('PUT', '/scrapers/:id', 'admin-scrapers.update', [manage], inputs.admin.update),
  adminRoute('DELETE', '/scrapers/:id', 'admin-scrapers.delete', [manage], inputs.admin.one),
  adminRoute('POST', '/scrapers/:id/run', 'admin-scrapers.run', [manage], inputs.admin.one),
  adminRoute('POST', '/scrapers/:id/stop', 'admin-scrapers.stop', [manage], inputs.admin.one),
  adminRoute('GET', '/scrapers/:id/runs', 'admin-scrapers.runs', [read], inputs.admin.runs),
  adminRoute('GET', '/scrapers/:id/runs/:runId', 'admin-scrapers.runOne', [read], inputs.admin.runOne),
  adminRoute('GET', '/scrapers/:id/results', 'admin-scrapers.results', [read], inputs.admin.results),
];
