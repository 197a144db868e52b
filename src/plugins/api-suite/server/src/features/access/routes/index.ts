import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { adminAccessContracts } from '../validation/admin-contracts';
import { accessContracts } from '../validation/contracts';
import { inputs } from './inputs';

/**
 * Mounted at /api/v1 (prefix ''). Strapi's own auth is off on these routes: the access guard,
 * which runs even where a site did not enable the global access middleware, authenticates them.
 */
const route = apiRoutes({ guarded: true, errors: errorsIn('nested-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route(accessContracts.createKey, 'keys.create', inputs.createKey),
  route(accessContracts.listKeys, 'keys.find', inputs.listKeys),
  route(accessContracts.revokeKey, 'keys.revoke', inputs.revokeKey),
  route(accessContracts.setKeyLimits, 'keys.update', inputs.updateKey),
  route(accessContracts.rerollKey, 'keys.reroll', inputs.rerollKey),
  route(accessContracts.getUsage, 'usage.summary', inputs.usage),
  route(accessContracts.streamUsage, 'usage.stream', inputs.usageStream),
  // RFC 6749's error body, which its error middleware gives the guard's answers on this route too (middlewares/oauth-errors.ts).
  apiRoutes({ guarded: true, errors: errorsIn('oauth-errors') })(accessContracts.issueToken, 'oauth.token'),
  route(accessContracts.listPlans, 'plans.find'),
  route(accessContracts.grantConsumerPlan, 'consumers.update', inputs.updateConsumer),
];

const { accessRead: read, accessManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute(adminAccessContracts.plans, 'admin-access.plans', [read]),
  adminRoute(adminAccessContracts.createPlan, 'admin-access.createPlan', [manage], inputs.adminCreatePlan),
  adminRoute(adminAccessContracts.updatePlan, 'admin-access.updatePlan', [manage], inputs.adminUpdatePlan),
  adminRoute(adminAccessContracts.keys, 'admin-access.keys', [read], inputs.adminKeys),
  adminRoute(adminAccessContracts.issueKey, 'admin-access.issueKey', [manage], inputs.adminIssueKey),
  adminRoute(adminAccessContracts.updateKey, 'admin-access.updateKey', [manage], inputs.adminUpdateKey),
  adminRoute(adminAccessContracts.revokeKey, 'admin-access.revokeKey', [manage], inputs.adminRevokeKey),
  adminRoute(adminAccessContracts.planConsumers, 'admin-access.planConsumers', [read], inputs.consumers),
  adminRoute(adminAccessContracts.grantPlan, 'admin-access.grantPlan', [manage], inputs.adminGrantPlan),
  adminRoute(adminAccessContracts.usage, 'admin-access.usage', [read], inputs.adminUsage),
  adminRoute(adminAccessContracts.usageStream, 'admin-access.usageStream', [read], inputs.adminUsage),
  // Whoever may issue keys or create scrapers must be able to pick their owner.
  adminRoute(
    adminAccessContracts.consumers,
    'admin-access.consumers',
    { any: [manage, ADMIN_PERMISSIONS.scrapersManage, read, ADMIN_PERMISSIONS.scrapersRead] },
    inputs.consumers
  ),
];
