import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import type { FeatureRoute } from '../../types';

/**
 * Mounted at /api/v1 (prefix ''). Strapi's own auth is off on these routes: the access guard,
 * which runs even where a site did not enable the global access middleware, authenticates them.
 */
const guarded = { auth: false as const, prefix: '', middlewares: ['plugin::api-suite.access-guard'] };

export const contentApiRoutes: FeatureRoute[] = [
  { method: 'POST', path: '/v1/keys', handler: 'keys.create', config: guarded },
  { method: 'GET', path: '/v1/keys', handler: 'keys.find', config: guarded },
  { method: 'DELETE', path: '/v1/keys/:id', handler: 'keys.revoke', config: guarded },
  { method: 'PATCH', path: '/v1/keys/:id', handler: 'keys.update', config: guarded },
  { method: 'POST', path: '/v1/keys/:id/reroll', handler: 'keys.reroll', config: guarded },
  { method: 'GET', path: '/v1/usage', handler: 'usage.summary', config: guarded },
  { method: 'GET', path: '/v1/usage/stream', handler: 'usage.stream', config: guarded },
  { method: 'POST', path: '/v1/oauth/token', handler: 'oauth.token', config: guarded },
  { method: 'GET', path: '/v1/plans', handler: 'plans.find', config: guarded },
  { method: 'PATCH', path: '/v1/consumers/:userId', handler: 'consumers.update', config: guarded },
];

const { accessRead: read, accessManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/access/plans', 'admin-access.plans', [read]),
  adminRoute('POST', '/access/plans', 'admin-access.createPlan', [manage]),
  adminRoute('PUT', '/access/plans/:id', 'admin-access.updatePlan', [manage]),
  adminRoute('GET', '/access/keys', 'admin-access.keys', [read]),
  adminRoute('POST', '/access/keys', 'admin-access.issueKey', [manage]),
  adminRoute('PUT', '/access/keys/:id', 'admin-access.updateKey', [manage]),
  adminRoute('DELETE', '/access/keys/:id', 'admin-access.revokeKey', [manage]),
  adminRoute('PUT', '/access/consumers/:id/plan', 'admin-access.grantPlan', [manage]),
  adminRoute('GET', '/access/usage', 'admin-access.usage', [read]),
  adminRoute('GET', '/access/usage/stream', 'admin-access.usageStream', [read]),
  {
    method: 'GET',
    path: '/consumers',
    handler: 'admin-access.consumers',
    config: {
      policies: [
        'admin::isAuthenticatedAdmin',
        // Whoever may issue keys or create scrapers must be able to pick their owner.
        {
          name: 'plugin::api-suite.has-any-permission',
          config: { actions: [manage, ADMIN_PERMISSIONS.scrapersManage, read, ADMIN_PERMISSIONS.scrapersRead] },
        },
      ],
    },
  },
];
