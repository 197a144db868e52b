import type Stripe from 'stripe';
import type { Knex } from '../db';
import { documentId } from '../random';

/**
 * Record a Stripe event's id in the table of applied events (unique on `event_id`); false when
 * it was there already. Orders claim the id in the transaction that applies the event; billing
 * records it once the event is applied.
 */
export async function recordStripeEvent(knex: Knex, table: string, event: Stripe.Event, orderUuid: string | null = null): Promise<boolean> {
  const now = new Date();
  const inserted = (await knex(table)
    .insert({
      document_id: documentId(),
      event_id: event.id,
      event_type: event.type,
      order_uuid: orderUuid,
      created_at: now,
      updated_at: now,
      published_at: now,
    })
    .onConflict('event_id')
    .ignore()
    .returning('id')) as unknown[];
  return inserted.length === 1;
}
