import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { tableOf } from '../../../db';
import { getService } from '../../../utils';
import { everyPage, type AccountPart } from '../../accounts/types';

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
      if (!consumerId) return { webhook_subscriptions: [] };
      const service = getService(strapi, 'webhook-subscriptions');
      const subscriptions = await everyPage(async (page) => {
        const { rows, total } = await service.list(consumerId, page, PAGE);
        return { items: rows.map((row) => service.present(row)), total };
      });
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
