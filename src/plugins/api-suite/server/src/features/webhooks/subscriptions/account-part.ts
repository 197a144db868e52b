import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { tableOf } from '../../../db';
import { getService } from '../../../utils';
import type { AccountPart } from '../../accounts/types';
import type { Subscription } from '../validation/responses';

/** Subscriptions read a page at a time for the export. */
const PAGE = 100;

/**
 * A consumer's webhook subscriptions (docs/accounts.md): exported as `GET /api/webhooks/subscriptions`
 * shows them (never a signing secret); on closing, deleted through the engine's own path, so a send
 * waiting for its turn finds its subscription gone and is cancelled.
 */
export function subscriptionsAccountPart(strapi: Core.Strapi): AccountPart {
  return {
    name: 'webhook-subscriptions',
    phase: 'work',
    async export({ consumerId }) {
      const service = getService(strapi, 'webhook-subscriptions');
      const subscriptions: Subscription[] = [];
      for (let page = 1; consumerId; page += 1) {
        const { rows, total } = await service.list(consumerId, page, PAGE);
        subscriptions.push(...rows.map((row) => service.present(row)));
        if (rows.length === 0 || subscriptions.length >= total) break;
      }
      return { webhook_subscriptions: subscriptions };
    },
    async prepareClosing({ consumerId }) {
      if (!consumerId) return null;
      return {
        async carryOut() {
          const service = getService(strapi, 'webhook-subscriptions');
          const ids = (await strapi.db
            .connection(tableOf(strapi, UIDS.webhookSubscription))
            .where({ consumer_id: consumerId })
            .select('id')) as Array<{ id: number }>;
          for (const { id } of ids) {
            const row = await service.getById(id);
            if (row) await service.remove(row);
          }
        },
        confirmation: () => 'Its webhook subscriptions have been deleted.',
      };
    },
  };
}
