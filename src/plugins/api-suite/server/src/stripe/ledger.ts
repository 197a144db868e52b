import type { Core } from '@strapi/strapi';
import type Stripe from 'stripe';
import { UIDS } from '../constants';
import { cutoffOf, deleteInChunks, dialectOf, insertNew, keysetPurge, lockedForPurge, tableOf, type Knex } from '../db';
import type { NextBatch, Purger } from '../features/retention/types';
import { documentId } from '../random';

/**
 * Record a Stripe event's id in the table of applied events (unique on `event_id`); false when
 * it was there already. Orders claim the id in the transaction that applies the event; billing
 * records it once the event is applied.
 */
export async function recordStripeEvent(
  knex: Knex,
  client: string,
  table: string,
  event: Stripe.Event,
  orderUuid: string | null = null
): Promise<boolean> {
  const now = new Date();
  const row = {
    document_id: documentId(),
    event_id: event.id,
    event_type: event.type,
    order_uuid: orderUuid,
    created_at: now,
    updated_at: now,
    published_at: now,
  };
  const [inserted] = await insertNew(knex, client, table, [row], ['event_id']);
  return inserted;
}

/**
 * The retention purge of the ledger: events applied more than `RETENTION_STRIPE_EVENTS_DAYS` ago.
 * The ledger only has to outlive Stripe's retries of an event (three days in live mode), so a
 * redelivered event is still recognised and acknowledged without being applied twice.
 */
export function stripeEventsPurger(strapi: Core.Strapi): Purger {
  return {
    name: 'stripe events',
    kinds: ['stripe_events'],
    async open({ now, settings, batchRows }): Promise<NextBatch | null> {
      const table = tableOf(strapi, UIDS.stripeEvent);
      const client = dialectOf(strapi);
      return keysetPurge(strapi.db.connection, {
        table,
        cutoff: cutoffOf(settings.stripeEventsDays, now),
        async batch(trx, { after, upTo, cutoff }) {
          const ids = (
            (await lockedForPurge(
              trx(table)
                .select('id')
                .where('id', '>', after)
                .andWhere('id', '<=', upTo)
                .andWhere('created_at', '<', cutoff)
                .orderBy('id', 'asc')
                .limit(batchRows),
              client
            )) as Array<{ id: number | string }>
          ).map((row) => row.id);
          if (ids.length === 0) return null;
          const deleted = await deleteInChunks(trx, table, 'id', ids);
          return { last: Number(ids[ids.length - 1]), purged: { stripe_events: deleted } };
        },
      });
    },
  };
}
