import type { FeatureModule } from '../types';
import { UIDS } from '../../constants';
import { getService } from '../../utils';
import { registerBillingTables } from './content-types/tables';
import { BILLING_EVENTS } from './event-types';
import adminBillingController from './controllers/admin';
import billingController, { billingErrors } from './controllers/billing';
import { adminRoutes, contentApiRoutes } from './routes';
import account from './services/account';
import catalog from './services/catalog';
import events from './services/events';
import metering from './services/metering';
import subscriptions from './services/subscriptions';
import { billingApi } from './validation/contracts';
import { billingAccountPart } from './account-part';

const SWEEP_INTERVAL_MS = 60_000;
let sweeper: NodeJS.Timeout | null = null;

/** What this feature registers; `getService` knows each one's type from here. */
const services = {
  'billing-catalog': catalog,
  'billing-account': account,
  'billing-subscriptions': subscriptions,
  'billing-events': events,
  'billing-metering': metering,
};

/**
 * Self-serve plans with Stripe Billing (docs/billing.md): plans provisioned as Stripe products and
 * prices, Checkout in subscription mode, plan changes, the Stripe Billing Portal, Stripe's
 * subscription and invoice events applied to the consumer's keys, a grace period for failed
 * payments, and overage reported as meter events. Without STRIPE_SECRET_KEY it stays off: its
 * routes answer 503 and nothing else changes.
 */
const feature: FeatureModule = {
  name: 'billing',
  register({ strapi }) {
    registerBillingTables(strapi);
    getService(strapi, 'webhook-event-types').define(BILLING_EVENTS);
    // Added whether or not Stripe is configured: the rows of an earlier setup stay an account's.
    getService(strapi, 'account-parts').add(billingAccountPart(strapi));
  },
  async bootstrap({ strapi }) {
    if (!getService(strapi, 'stripe').configured()) {
      strapi.log.info('[api-suite] billing is off: STRIPE_SECRET_KEY is not set');
      return;
    }
    const catalogService = getService(strapi, 'billing-catalog');
    // In the background: Stripe being slow or down never holds the boot.
    void catalogService.sync();
    // After the plan's transaction commits: provisioning reads the plans on its own connection,
    // which would not see a plan still being created (inside no transaction, at once).
    const syncAfterCommit = async (): Promise<void> => {
      await strapi.db.transaction(async ({ onCommit }) => {
        onCommit(() => void catalogService.sync());
      });
    };
    strapi.db.lifecycles.subscribe({
      models: [UIDS.plan],
      afterCreate: syncAfterCommit,
      afterUpdate: syncAfterCommit,
    });
    getService(strapi, 'billing-metering').start();
    sweeper = setInterval(
      () =>
        void getService(strapi, 'billing-subscriptions')
          .sweep()
          .catch((error: Error) => strapi.log.warn(`[api-suite] billing: grace sweep failed: ${error.message}`)),
      SWEEP_INTERVAL_MS
    );
    sweeper.unref();
  },
  async destroy({ strapi }) {
    if (sweeper) clearInterval(sweeper);
    sweeper = null;
    getService(strapi, 'billing-catalog').stop();
    await getService(strapi, 'billing-metering').stop();
  },
  services,
  controllers: { billing: billingController, 'admin-billing': adminBillingController },
  middlewares: { 'billing-errors': billingErrors },
  routes: { 'content-api': contentApiRoutes, admin: adminRoutes },
  api: billingApi,
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
