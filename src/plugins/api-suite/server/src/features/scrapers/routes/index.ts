import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import type { FeatureRoute } from '../../types';

/** Mounted at /api/v1 (prefix ''), authenticated by the access guard like every /api/v1 route. */
const guarded = { auth: false as const, prefix: '', middlewares: ['plugin::api-suite.access-guard'] };

export const contentApiRoutes: FeatureRoute[] = [
  { method: 'POST', path: '/v1/scrapers', handler: 'scrapers.create', config: guarded },
  { method: 'GET', path: '/v1/scrapers', handler: 'scrapers.find', config: guarded },
  { method: 'GET', path: '/v1/scrapers/:id', handler: 'scrapers.findOne', config: guarded },
  { method: 'PATCH', path: '/v1/scrapers/:id', handler: 'scrapers.update', config: guarded },
  { method: 'DELETE', path: '/v1/scrapers/:id', handler: 'scrapers.delete', config: guarded },
  { method: 'POST', path: '/v1/scrapers/:id/run', handler: 'scrapers.run', config: guarded },
  { method: 'POST', path: '/v1/scrapers/:id/stop', handler: 'scrapers.stop', config: guarded },
  { method: 'GET', path: '/v1/scrapers/:id/status', handler: 'scrapers.status', config: guarded },
  { method: 'GET', path: '/v1/scrapers/:id/runs', handler: 'scrapers.runs', config: guarded },
  { method: 'GET', path: '/v1/scrapers/:id/runs/:runId', handler: 'scrapers.runOne', config: guarded },
  { method: 'GET', path: '/v1/scrapers/:id/results', handler: 'scrapers.results', config: guarded },
  { method: 'POST', path: '/v1/webhooks', handler: 'scrapers.runEventsWebhook', config: guarded },
];

const { scrapersRead: read, scrapersManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/scrapers', 'admin-scrapers.find', [read]),
  adminRoute('GET', '/scrapers/options', 'admin-scrapers.options', [read]),
  adminRoute('POST', '/scrapers', 'admin-scrapers.create', [manage]),
  adminRoute('GET', '/scrapers/:id', 'admin-scrapers.findOne', [read]),
  adminRoute('PUT', '/scrapers/:id', 'admin-scrapers.update', [manage]),
  adminRoute('DELETE', '/scrapers/:id', 'admin-scrapers.delete', [manage]),
  adminRoute('POST', '/scrapers/:id/run', 'admin-scrapers.run', [manage]),
  adminRoute('POST', '/scrapers/:id/stop', 'admin-scrapers.stop', [manage]),
  adminRoute('GET', '/scrapers/:id/runs', 'admin-scrapers.runs', [read]),
  adminRoute('GET', '/scrapers/:id/runs/:runId', 'admin-scrapers.runOne', [read]),
  adminRoute('GET', '/scrapers/:id/results', 'admin-scrapers.results', [read]),
];
