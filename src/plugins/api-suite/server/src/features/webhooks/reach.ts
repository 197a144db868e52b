import type { Core } from '@strapi/strapi';
import { NotFoundError } from '../../errors';
import { reaches, type Viewer } from '../../http/consumer';
import { getService } from '../../utils';
import type { DeliveryRow } from './services/deliveries';
import type { AdminEventType } from './validation/responses';
import type { SubscriptionRow } from './services/subscriptions';

/**
 * What the webhook routes load from their path (routes/inputs.ts), outside the controllers so the
 * route inputs can name them without a cycle. Another consumer's subscription or delivery is
 * answered as one that does not exist.
 */

/** The subscription `uuid`, if `viewer` may reach it; any other answers 404. */
export async function subscriptionFor(strapi: Core.Strapi, uuid: string, viewer: Viewer): Promise<SubscriptionRow> {
  const row = await getService(strapi, 'webhook-subscriptions').get(uuid);
  if (!row || !reaches(viewer, row.consumer_id)) throw new NotFoundError('Subscription');
  return row;
}

/** The delivery `uuid` and its subscription, if `viewer` may reach them; any other answers 404. */
export async function deliveryFor(
  strapi: Core.Strapi,
  uuid: string,
  viewer: Viewer
): Promise<{ delivery: DeliveryRow; subscription: SubscriptionRow }> {
  const delivery = await getService(strapi, 'webhook-deliveries').get(uuid);
  const subscription = delivery ? await getService(strapi, 'webhook-subscriptions').getById(delivery.subscription_id) : null;
  if (!delivery || !subscription || !reaches(viewer, subscription.consumer_id)) throw new NotFoundError('Delivery');
  return { delivery, subscription };
}

/** The event type `name` as the admin panel shows it (switched off or not); 404 when the catalog has none. */
export async function eventTypeFor(strapi: Core.Strapi, name: string): Promise<AdminEventType> {
  const type = await getService(strapi, 'webhook-event-types').get(name);
  if (!type) throw new NotFoundError('Event type');
  return type;
}
