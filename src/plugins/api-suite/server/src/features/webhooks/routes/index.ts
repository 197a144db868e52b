import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { inputs } from './inputs';

/**
 * Mounted at /api/webhooks (prefix ''). As for /api/v1, Strapi's own auth is off: the access
 * guard authenticates every route, even on a site that did not enable the global middleware.
 */
const route = apiRoutes({ guarded: true, errors: errorsIn('flat-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route('POST', '/webhooks/subscriptions', 'webhook-subscriptions.create', inputs.create),
  route('GET', '/webhooks/subscriptions', 'webhook-subscriptions.find', inputs.find),
  route('GET', '/webhooks/subscriptions/:id', 'webhook-subscriptions.findOne'),
  route('PATCH', '/webhooks/subscriptions/:id', 'webhook-subscriptions.update', inputs.update),
  route('DELETE', '/webhooks/subscriptions/:id', 'webhook-subscriptions.delete'),
  route('POST', '/webhooks/subscriptions/:id/test', 'webhook-subscriptions.test'),
  route('POST', '/webhooks/subscriptions/:id/rotate-secret', 'webhook-subscriptions.rotateSecret'),
  route('GET', '/webhooks/subscriptions/:id/deliveries', 'webhook-deliveries.find', inputs.deliveries),
  route('POST', '/webhooks/subscriptions/:id/recover', 'webhook-deliveries.recover', inputs.recover),
  route('GET', '/webhooks/deliveries/:id', 'webhook-deliveries.findOne'),
  route('POST', '/webhooks/deliveries/:id/retry', 'webhook-deliveries.retry'),
  route('GET', '/webhooks/event-types', 'webhook-events.types'),
  route('POST', '/webhooks/events', 'webhook-events.publish'),
  route('POST', '/webhooks/filter-test', 'webhook-events.filterTest', inputs.filterTest),
];

const { webhooksRead: read, webhooksManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/webhooks/subscriptions', 'admin-webhooks.subscriptions', [read], inputs.adminSubscriptions),
  adminRoute('GET', '/webhooks/subscriptions/:id', 'admin-webhooks.subscription', [read]),
  adminRoute('PUT', '/webhooks/subscriptions/:id', 'admin-webhooks.updateSubscription', [manage], inputs.adminUpdateSubscription),
  adminRoute('POST', '/webhooks/subscriptions/:id/test', 'admin-webhooks.test', [manage]),
  adminRoute('GET', '/webhooks/subscriptions/:id/deliveries', 'admin-webhooks.deliveries', [read], inputs.deliveries),
  adminRoute('GET', '/webhooks/deliveries/:id', 'admin-webhooks.delivery', [read]),
  adminRoute('POST', '/webhooks/subscriptions/:id/recover', 'admin-webhooks.recover', [manage], inputs.recover),
  adminRoute('POST', '/webhooks/deliveries/:id/retry', 'admin-webhooks.retry', [manage]),
  adminRoute('GET', '/webhooks/event-types', 'admin-webhooks.eventTypes', [read]),
  adminRoute('PUT', '/webhooks/event-types/:name', 'admin-webhooks.updateEventType', [manage], inputs.adminUpdateEventType),
  adminRoute('POST', '/webhooks/filter-test', 'admin-webhooks.filterTest', [read], inputs.adminFilterTest),
];
