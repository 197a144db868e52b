import type { Core } from '@strapi/strapi';
import { getService } from '../../../utils';
import { testPayload } from '../subscriptions/create';
import { TEST_EVENT_TYPE } from '../events/catalog';
import type { SubscriptionRow } from '../services/subscriptions';

export interface TestOutcome {
  delivery_id: string;
  delivered: boolean;
  status_code: number | null;
  duration_ms: number;
}

/**
 * One signed test event, sent now from the caller and recorded as a `webhook.test` delivery with
 * its attempt (counted like any attempt, never retried): the on-demand test of the API and of the
 * admin panel alike.
 */
export async function sendTestEvent(strapi: Core.Strapi, row: SubscriptionRow): Promise<TestOutcome> {
  const deliveries = getService(strapi, 'webhook-deliveries');
  const target = getService(strapi, 'webhook-subscriptions').toTarget(row);
  const data = await deliveries.createInline(row.id, TEST_EVENT_TYPE, testPayload(row));
  const outcome = await deliveries.attempt(target, data);
  await deliveries.settle(target, data, outcome, { retry: false });
  await deliveries.flush();
  return { delivery_id: data.delivery, delivered: outcome.ok, status_code: outcome.statusCode, duration_ms: outcome.durationMs };
}
