import { randomUUID } from 'node:crypto';
import type { FeatureModule } from '../types';
import { UIDS } from '../../constants';
import { getService } from '../../utils';
import consumers from './services/consumers';

/**
 * Identity for the API business: the `consumer_id` of every user and the administrator role.
 * (API keys, plans, quotas and OAuth join this feature.)
 */
const feature: FeatureModule = {
  name: 'access',
  register({ strapi }) {
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
    withIndexes.indexes = [...(withIndexes.indexes ?? []), { name: 'up_users_consumer_id_unique', columns: ['consumer_id'], type: 'unique' }];
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
    const service = getService(strapi, 'consumers');
    await service.ensureAdministratorRole();
    const backfilled = await service.backfillConsumerIds();
    if (backfilled > 0) strapi.log.info(`[api-suite] gave ${backfilled} existing users a consumer_id`);
  },
  services: { consumers },
};

export default feature;
