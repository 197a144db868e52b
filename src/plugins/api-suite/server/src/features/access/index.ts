import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { FeatureModule } from '../types';
import { adminActionsOf } from '../../../../shared/permissions';
import { UIDS } from '../../constants';
import { getService } from '../../utils';
import contentTypes from './content-types';
import { registerAccessTables } from './content-types/tables';
import { registerContentStrategy } from './content-api/strategy';
import contentManager from './content-types/views';
import adminController from './controllers/admin';
import consumersController from './controllers/consumers';
import keysController from './controllers/keys';
import oauthController from './controllers/oauth';
import plansController from './controllers/plans';
import usageController from './controllers/usage';
import { migrateToConsumerPools } from './migrations/consumer-pools';
import { access as accessMiddleware, accessGuard } from './middlewares/access';
import { oauthErrors } from './middlewares/oauth-errors';
import hasAnyPermission from './policies/has-any-permission';
import { adminRoutes, contentApiRoutes } from './routes';
import access from './services/access';
import consumerPlans from './services/consumer-plans';
import consumers from './services/consumers';
import keys from './services/keys';
import oauth from './services/oauth';
import plans from './services/plans';
import quotaAlerts from './services/quota-alerts';
import staff from './services/staff';
import usage from './services/usage';
import { ACCESS_EVENTS } from './event-types';
import { usagePurger } from './usage-rollups';
import { accessApi } from './validation/contracts';
import { keysAccountPart, usageAccountPart } from './account-parts';

/** What this feature registers; `getService` knows each one's type from here. */
const services = { consumers, 'consumer-plans': consumerPlans, keys, plans, usage, oauth, access, 'quota-alerts': quotaAlerts, staff };

/**
 * Who may call the API and how much: consumers and the administrator role, API keys with
 * plans, per-minute and monthly quotas, usage records, and OAuth client credentials.
 */
const feature: FeatureModule = {
  name: 'access',
  register({ strapi }) {
    registerAccessTables(strapi);
    registerContentStrategy(strapi);
    getService(strapi, 'webhook-event-types').define(ACCESS_EVENTS);
    getService(strapi, 'retention').add(usagePurger(strapi));
    getService(strapi, 'account-parts').add(keysAccountPart(strapi));
    getService(strapi, 'account-parts').add(usageAccountPart(strapi));
    const user = strapi.contentType(UIDS.user);
    // Added here rather than by overriding the users-permissions schema, so a site that installs
    // the plugin keeps its own user extensions. Not writable through any API: it is the
    // consumer's identity, set once when the user is created.
    user.attributes.consumer_id = {
      type: 'string',
      unique: true,
      configurable: false,
      writable: false,
      visible: true,
    } as (typeof user.attributes)[string];
    const withIndexes = user as typeof user & { indexes?: Array<{ name: string; columns: string[]; type?: 'unique' }> };
    withIndexes.indexes = [
      ...(withIndexes.indexes ?? []),
      { name: 'up_users_consumer_id_unique', columns: ['consumer_id'], type: 'unique' },
    ];
  },
  async bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: [UIDS.user],
      beforeCreate(event) {
        const data = event.params.data as Record<string, unknown>;
        data.consumer_id = randomUUID();
      },
      beforeUpdate(event) {
        // The consumer id never changes, whoever asks.
        delete (event.params.data as Record<string, unknown>).consumer_id;
      },
    });
    // The content API's key path keeps owners and role abilities (content-api/owners.ts): an edit of
    // a user, a role or a permission clears them on every instance, at once and again once its
    // transaction commits (a request in between could have cached them as they were).
    const forgetOwners = async (): Promise<void> => {
      const keys = getService(strapi, 'keys');
      await keys.invalidateOwners();
      await strapi.db.transaction(async ({ onCommit }) => {
        onCommit(
          () =>
            void keys
              .invalidateOwners()
              .catch((error: Error) => strapi.log.warn(`[api-suite] access: owners cache not cleared after commit: ${error.message}`))
        );
      });
    };
    strapi.db.lifecycles.subscribe({
      models: [UIDS.user, UIDS.role, 'plugin::users-permissions.permission'],
      afterCreate: forgetOwners,
      afterCreateMany: forgetOwners,
      afterUpdate: forgetOwners,
      afterUpdateMany: forgetOwners,
      afterDelete: forgetOwners,
      afterDeleteMany: forgetOwners,
    });
    // Edits made in the admin panel (a key revoked or a plan changed there) reach every instance's
    // cache: at once, and again once the edit's transaction commits, since a request served in
    // between could have cached the row as it was before.
    const invalidate = async (event: { model: { uid: string }; result?: unknown }): Promise<void> => {
      const id = (event.result as { id?: number } | undefined)?.id;
      const target = event.model.uid === UIDS.apiKey && id ? id : '*';
      const keys = getService(strapi, 'keys');
      await keys.invalidate(target);
      await strapi.db.transaction(async ({ onCommit }) => {
        onCommit(
          () =>
            void keys
              .invalidate(target)
              .catch((error: Error) => strapi.log.warn(`[api-suite] access: key cache not cleared after commit: ${error.message}`))
        );
      });
    };
    strapi.db.lifecycles.subscribe({ models: [UIDS.apiKey, UIDS.plan], afterUpdate: invalidate, afterDelete: invalidate });
    // The plans' own rules hold for the Content Manager's edits too, not only for the admin panel's routes.
    const checkPrices = async (event: { params: { data?: unknown; where?: unknown } }, id?: number) => {
      const problem = await getService(strapi, 'plans').yearlyPriceProblem(
        (event.params.data ?? {}) as { price_monthly?: number | string | null; price_yearly?: number | string | null },
        id
      );
      if (problem) throw new errors.ValidationError(`price_yearly: ${problem}`);
    };
    strapi.db.lifecycles.subscribe({
      models: [UIDS.plan],
      beforeCreate: (event) => checkPrices(event),
      beforeUpdate: (event) => {
        const id = (event.params.where as { id?: unknown } | undefined)?.id;
        return checkPrices(event, typeof id === 'number' ? id : undefined);
      },
    });
    // A new plan, or a new default, changes what consumers without a plan of their own are on.
    strapi.db.lifecycles.subscribe({ models: [UIDS.plan], afterCreate: invalidate });

    const service = getService(strapi, 'consumers');
    await service.ensureAdministratorRole();
    const backfilled = await service.backfillConsumerIds();
    if (backfilled > 0) strapi.log.info(`[api-suite] gave ${backfilled} existing users a consumer_id`);
    await getService(strapi, 'plans').ensureDefaults();
    await migrateToConsumerPools(strapi);
    await getService(strapi, 'keys').listen();
  },
  async destroy({ strapi }) {
    await getService(strapi, 'usage').close();
  },
  contentTypes,
  contentManager,
  services,
  controllers: {
    consumers: consumersController,
    keys: keysController,
    usage: usageController,
    oauth: oauthController,
    plans: plansController,
    'admin-access': adminController,
  },
  middlewares: { access: accessMiddleware, 'access-guard': accessGuard, 'oauth-errors': oauthErrors },
  policies: { 'has-any-permission': hasAnyPermission as Core.Policy },
  routes: { 'content-api': contentApiRoutes, admin: adminRoutes },
  api: accessApi,
  adminActions: adminActionsOf('access'),
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
