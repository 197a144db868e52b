import type { FeatureModule } from '../types';
import { getService } from '../../utils';
import { adminActionsOf } from '../../../../shared/permissions';
import contentTypes from './content-types';
import contentManager from './content-types/views';
import adminSalesController from './controllers/admin';
import checkoutController, { checkoutErrors } from './controllers/checkout';
import reportsController, { reportErrors } from './controllers/reports';
import stripeWebhookController, { stripeWebhookErrors } from './controllers/stripe-webhook';
import { commerceBody } from './middlewares/commerce-body';
import { registerOrderEvents } from './events/order-events';
import { productEventAdapter } from './events/product-events';
import { adaptContentEvents } from '../content/events/adapters';
import { COMMERCE_EVENTS } from './events/event-types';
import { adminRoutes, contentApiRoutes } from './routes';
import checkout from './services/checkout';
import orders from './services/orders';
import salesReports from './services/sales-reports';
import stripeEvents from './services/stripe-events';
import { stripeEventsPurger } from '../../stripe/ledger';
import { ordersAccountPart } from './account-part';

/** What this feature registers; `getService` knows each one's type from here. */
const services = { orders, checkout, 'stripe-events': stripeEvents, 'sales-reports': salesReports };

/**
 * Commerce (docs/commerce.md): checkout with an atomic stock reservation and a Stripe Checkout
 * Session, Stripe's payment notifications applied once each, the administrators' sales report,
 * and the order events, published through the webhook engine to the buyer and administrators.
 */
const feature: FeatureModule = {
  name: 'commerce',
  register({ strapi }) {
    registerOrderEvents(strapi);
    // Products announce their changes, the stock checkout takes included, in the events the feed's subscribers know.
    adaptContentEvents(strapi, productEventAdapter);
    getService(strapi, 'webhook-event-types').define(COMMERCE_EVENTS);
    getService(strapi, 'retention').add(stripeEventsPurger(strapi));
    getService(strapi, 'account-parts').add(ordersAccountPart(strapi));
  },
  contentTypes,
  contentManager,
  services,
  controllers: {
    checkout: checkoutController,
    'stripe-webhook': stripeWebhookController,
    reports: reportsController,
    'admin-sales': adminSalesController,
  },
  middlewares: {
    'commerce-body': commerceBody,
    'checkout-errors': checkoutErrors,
    'report-errors': reportErrors,
    'stripe-webhook-errors': stripeWebhookErrors,
  },
  routes: { 'content-api': contentApiRoutes, admin: adminRoutes },
  adminActions: adminActionsOf('sales'),
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
