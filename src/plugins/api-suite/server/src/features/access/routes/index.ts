import { ADMIN_PERMISSIONS, adminMiddlewares, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { inputs } from './inputs';

/**
 * Mounted at /api/v1 (prefix ''). Strapi's own auth is off on these routes: the access guard,
 * which runs even where a site did not enable the global access middleware, authenticates them.
 */
const route = apiRoutes({ guarded: true, errors: errorsIn('nested-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route('POST', '/v1/keys', 'keys.create', inputs.createKey),
  route('GET', '/v1/keys', 'keys.find', inputs.listKeys),
  route('DELETE', '/v1/keys/:id', 'keys.revoke', inputs.revokeKey),
  route('PATCH', '/v1/keys/:id', 'keys.update', inputs.updateKey),
  route('POST', '/v1/keys/:id/reroll', 'keys.reroll', inputs.rerollKey),
  route('GET', '/v1/usage', 'usage.summary', inputs.usage),
  route('GET', '/v1/usage/stream', 'usage.stream', inputs.usageStream),
  // RFC 6749's error body, which its error middleware gives the guard's answers on this route too (middlewares/oauth-errors.ts).
  apiRoutes({ guarded: true, errors: errorsIn('oauth-errors') })('POST', '/v1/oauth/token', 'oauth.token'),
  route('GET', '/v1/plans', 'plans.find'),
  route('PATCH', '/v1/consumers/:userId', 'consumers.update', inputs.updateConsumer),
];

const { accessRead: read, accessManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/access/plans', 'admin-access.plans', [read]),
  adminRoute('POST', '/access/plans', 'admin-access.createPlan', [manage], inputs.adminCreatePlan),
  adminRoute('PUT', '/access/plans/:id', 'admin-access.updatePlan', [manage], inputs.adminUpdatePlan),
  adminRoute('GET', '/access/keys', 'admin-access.keys', [read], inputs.adminKeys),
  adminRoute('POST', '/access/keys', 'admin-access.issueKey', [manage], inputs.adminIssueKey),
  adminRoute('PUT', '/access/keys/:id', 'admin-access.updateKey', [manage], inputs.adminUpdateKey),
  adminRoute('DELETE', '/access/keys/:id', 'admin-access.revokeKey', [manage], inputs.adminRevokeKey),
  adminRoute('GET', '/access/consumers', 'admin-access.planConsumers', [read], inputs.consumers),
  adminRoute('PUT', '/access/consumers/:id/plan', 'admin-access.grantPlan', [manage], inputs.adminGrantPlan),
  adminRoute('GET', '/access/usage', 'admin-access.usage', [read], inputs.adminUsage),
  adminRoute('GET', '/access/usage/stream', 'admin-access.usageStream', [read], inputs.adminUsage),
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
      middlewares: adminMiddlewares(inputs.consumers),
    },
  },
];
