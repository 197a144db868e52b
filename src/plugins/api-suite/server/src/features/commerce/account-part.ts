import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import { fromJson, toIso } from '../../db';
import type { AccountPart } from '../accounts/types';
import type { AccountOrder } from './validation/responses';

/**
 * A consumer's orders (docs/accounts.md): exported newest first; on closing, they stay for
 * accounting under the consumer id, without the buyer or where they live.
 */
export function ordersAccountPart(strapi: Core.Strapi): AccountPart {
  return {
    name: 'orders',
    phase: 'records',
    async export({ userId }) {
      const rows = (await strapi.db.query(UIDS.order).findMany({
        where: { user: { id: userId } },
        orderBy: [{ date_created: 'desc' }, { id: 'desc' }],
      })) as OrderRow[];
      return {
        orders: rows.map((row) => ({
          id: row.uuid,
          status: row.status,
          total: Number(row.total),
          currency: row.currency ?? null,
          items: fromJson<AccountOrder['items']>(row.items, []),
          // The query engine reads JSON columns already parsed: an address given as text is a string here.
          shipping_address: row.shipping_address ?? null,
          payment_method: row.payment_method ?? null,
          payment_id: row.payment_id ?? null,
          created_at: toIso(row.date_created),
          paid_at: toIso(row.paid_at),
        })),
      };
    },
    async prepareClosing({ userId, consumerId }) {
      // Found through the user relation, which goes with the user row: read before anything changes.
      const rows = (await strapi.db.query(UIDS.order).findMany({ where: { user: { id: userId } }, select: ['id'] })) as Array<{
        id: number;
      }>;
      if (rows.length === 0) return null;
      return {
        async carryOut() {
          for (const { id } of rows) {
            await strapi.db
              .query(UIDS.order)
              .update({ where: { id }, data: { user: null, consumer_id: consumerId, shipping_address: null } });
          }
        },
        confirmation: () => 'Records of your orders are kept for accounting, without your name or address.',
      };
    },
  };
}

interface OrderRow {
  uuid: string;
  status: AccountOrder['status'];
  total: number | string;
  currency?: string | null;
  items?: unknown;
  shipping_address?: unknown;
  payment_method?: string | null;
  payment_id?: string | null;
  date_created?: unknown;
  paid_at?: unknown;
}
