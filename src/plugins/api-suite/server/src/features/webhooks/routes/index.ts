import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { adminWebhookContracts } from '../validation/admin-contracts';
import { webhookContracts } from '../validation/contracts';
import { inputs } from './inputs';

/**
 * Mounted at /api/webhooks (prefix ''). As for /api/v1, Strapi's own auth is off: the access
 * guard authenticates every route, even on a site that did not enable the global middleware.
 */
const route = apiRoutes({ guarded: true, errors: errorsIn('flat-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route(webhookContracts.createSubscription, 'webhook-subscriptions.create', inputs.create),
  route(webhookContracts.listSubscriptions, 'webhook-subscriptions.find', inputs.find),
  route(webhookContracts.getSubscription, 'webhook-subscriptions.findOne', inputs.api.one),
  route(webhookContracts.updateSubscription, 'webhook-subscriptions.update', inputs.api.update),
  route(webhookContracts.deleteSubscription, 'webhook-subscriptions.delete', inputs.api.one),
  route(webhookContracts.testSubscription, 'webhook-subscriptions.test', inputs.api.one),
  route(webhookContracts.rotateSubscriptionSecret, 'webhook-subscriptions.rotateSecret', inputs.api.one),
  route(webhookContracts.listDeliveries, 'webhook-deliveries.find', inputs.api.deliveries),
  route(webhookContracts.recoverDeliveries, 'webhook-deliveries.recover', inputs.api.recover),
  route(webhookContracts.getDelivery, 'webhook-deliveries.findOne', inputs.api.delivery),
  route(webhookContracts.retryDelivery, 'webhook-deliveries.retry', inputs.api.delivery),
  route(webhookContracts.listEventTypes, 'webhook-events.types'),
  route(webhookContracts.publishEvents, 'webhook-events.publish', inputs.publish),
  route(webhookContracts.testFilter, 'webhook-events.filterTest', inputs.filterTest),
];

const { webhooksRead: read, webhooksManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute(adminWebhookContracts.listSubscriptions, 'admin-webhooks.subscriptions', [read], inputs.adminSubscriptions),
  adminRoute(adminWebhookContracts.getSubscription, 'admin-webhooks.subscription', [read], inputs.admin.one),
  adminRoute(adminWebhookContracts.updateSubscription, 'admin-webhooks.updateSubscription', [manage], inputs.admin.update),
  adminRoute(adminWebhookContracts.testSubscription, 'admin-webhooks.test', [manage], inputs.admin.one),
  adminRoute(adminWebhookContracts.listDeliveries, 'admin-webhooks.deliveries', [read], inputs.admin.deliveries),
  adminRoute(adminWebhookContracts.getDelivery, 'admin-webhooks.delivery', [read], inputs.admin.delivery),
  adminRoute(adminWebhookContracts.recoverDeliveries, 'admin-webhooks.recover', [manage], inputs.admin.recover),
  adminRoute(adminWebhookContracts.retryDelivery, 'admin-webhooks.retry', [manage], inputs.admin.delivery),
  adminRoute(adminWebhookContracts.listEventTypes, 'admin-webhooks.eventTypes', [read]),
  adminRoute(adminWebhookContracts.updateEventType, 'admin-webhooks.updateEventType', [manage], inputs.admin.eventType),
  adminRoute(adminWebhookContracts.testFilter, 'admin-webhooks.filterTest', [read], inputs.adminFilterTest),
  adminRoute(adminWebhookContracts.publishEvents, 'admin-webhooks.publish', [manage], inputs.adminPublish),
];
