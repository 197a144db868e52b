import type { Core } from '@strapi/strapi';
import type { PluginConfig } from './config';
import { PLUGIN_ID } from './constants';
import type { AccessService } from './features/access/services/access';
import type { ConsumerPlansService } from './features/access/services/consumer-plans';
import type { ConsumersService } from './features/access/services/consumers';
import type { KeysService } from './features/access/services/keys';
import type { OAuthService } from './features/access/services/oauth';
import type { PlansService } from './features/access/services/plans';
import type { UsageService } from './features/access/services/usage';
import type { BillingAccountService } from './features/billing/services/account';
import type { BillingCatalogService } from './features/billing/services/catalog';
import type { BillingEventsService } from './features/billing/services/events';
import type { BillingMeteringService } from './features/billing/services/metering';
import type { BillingSubscriptionsService } from './features/billing/services/subscriptions';
import type { CheckoutService } from './features/commerce/services/checkout';
import type { OrdersService } from './features/commerce/services/orders';
import type { SalesReportsService } from './features/commerce/services/sales-reports';
import type { StripeService } from './features/commerce/services/stripe';
import type { StripeEventsService } from './features/commerce/services/stripe-events';
import type { ContentChangesService } from './features/platform/services/content-changes';
import type { HttpService } from './features/platform/services/http';
import type { MetricsService } from './features/observability/services/metrics';
import type { ReadinessService } from './features/observability/services/readiness';
import type { OpenApiService } from './features/platform/services/openapi';
import type { ContentManagerViewsService } from './features/platform/services/content-manager-views';
import type { PlatformService } from './features/platform/services/platform';
import type { PortalService } from './features/portal/services/portal';
import type { ChangeDetectionService } from './features/scrapers/services/change-detection';
import type { ScraperRunsService } from './features/scrapers/services/runs';
import type { ScrapersService } from './features/scrapers/services/scrapers';
import type { SearchService } from './features/search/services/search';
import type { WebhookDeliveriesService } from './features/webhooks/services/deliveries';
import type { WebhookEventTypesService } from './features/webhooks/services/event-types';
import type { WebhookSubscriptionsService } from './features/webhooks/services/subscriptions';
import type { WebhooksService } from './features/webhooks/services/webhooks';

/** Typed access to the plugin's services, so callers never spell a service name as a bare string. */
export interface Services {
  platform: PlatformService;
  http: HttpService;
  'content-changes': ContentChangesService;
  openapi: OpenApiService;
  'content-manager-views': ContentManagerViewsService;
  consumers: ConsumersService;
  'consumer-plans': ConsumerPlansService;
  keys: KeysService;
  plans: PlansService;
  usage: UsageService;
  oauth: OAuthService;
  access: AccessService;
  webhooks: WebhooksService;
  'webhook-subscriptions': WebhookSubscriptionsService;
  'webhook-event-types': WebhookEventTypesService;
  'webhook-deliveries': WebhookDeliveriesService;
  scrapers: ScrapersService;
  'scraper-runs': ScraperRunsService;
  'scraper-change-detection': ChangeDetectionService;
  orders: OrdersService;
  checkout: CheckoutService;
  stripe: StripeService;
  'stripe-events': StripeEventsService;
  'sales-reports': SalesReportsService;
  'billing-catalog': BillingCatalogService;
  'billing-account': BillingAccountService;
  'billing-subscriptions': BillingSubscriptionsService;
  'billing-events': BillingEventsService;
  portal: PortalService;
  'billing-metering': BillingMeteringService;
  search: SearchService;
  metrics: MetricsService;
  readiness: ReadinessService;
}

export function getService<K extends keyof Services>(strapi: Core.Strapi, name: K): Services[K] {
  return strapi.plugin(PLUGIN_ID).service(name) as Services[K];
}

export function getConfig(strapi: Core.Strapi): PluginConfig {
  return strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
}
