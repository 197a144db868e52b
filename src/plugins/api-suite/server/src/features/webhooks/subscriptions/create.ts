import type { TestEventData } from '../events/catalog';
import type { Core } from '@strapi/strapi';
import { getService } from '../../../utils';
import { TEST_EVENT_TYPE } from '../events/catalog';
import type { SubscriptionInput, SubscriptionRow } from './rows';
import { checkEndpoint } from '../../platform/endpoint-check';
import { InvalidEventsError } from '../errors';
import { checkFilter } from './filters';
import { capOf, type SubscriptionCreator } from './cap';

/**
 * Creating a subscription (docs/webhooks.md#creating-and-changing-a-subscription), shared by
 * `POST /api/webhooks/subscriptions` and the scrapers' `POST /api/v1/webhooks`: event types
 * checked (422 invalid_events), the payload filter checked against them (422 invalid_filter), the
 * address checked (422 endpoint_not_allowed), the row written unless the consumer already holds
 * as many as their plan allows (409 too_many_subscriptions, administrators not capped),
 * a test event queued, and the reachability probed without delaying the answer.
 */
export async function createSubscription(
  strapi: Core.Strapi,
  creator: SubscriptionCreator,
  input: SubscriptionInput,
  options: { allowedEvents?: readonly string[] } = {}
): Promise<{ row: SubscriptionRow; secret: string }> {
  await checkEvents(strapi, input.events, options.allowedEvents);
  await checkAudience(strapi, creator.consumerId, input.events);
  await checkFilter(strapi, input.filter, input.events);
  await checkEndpoint(strapi, input.endpoint_url);
  const cap = await capOf(strapi, creator);
  const created = await getService(strapi, 'webhook-subscriptions').create(creator.consumerId, input, { cap });
  await getService(strapi, 'webhooks').publishTo(created.row.id, TEST_EVENT_TYPE, testPayload(created.row));
  probe(strapi, created.row);
  return created;
}

/**
 * 422 invalid_events naming every event type that is unknown, switched off, or outside
 * `allowed` (a route that subscribes to one family of events, such as the scrapers' run events).
 */
export async function checkEvents(strapi: Core.Strapi, events: string[] | undefined, allowed?: readonly string[]): Promise<void> {
  if (!events) return;
  const types = getService(strapi, 'webhook-event-types');
  const refused = new Set(await types.unknown(events));
  if (allowed) {
    for (const event of events) {
      if (allowed.includes(event)) continue;
      // A pattern is allowed when every type it names is.
      const named = (await types.receivedBy([event])).map((type) => type.name);
      if (named.length === 0 || named.some((name) => !allowed.includes(name))) refused.add(event);
    }
  }
  const unknown = events.filter((event) => refused.has(event));
  if (unknown.length > 0) {
    throw new InvalidEventsError(unknown, `Unknown or inactive event types: ${unknown.join(', ')}`);
  }
}

/**
 * 422 invalid_events for event types a consumer who is not staff names although only the site's
 * staff receive them (events about drafts: docs/webhooks.md#drafts-and-audiences). A pattern
 * (`recipe.*`, `*`) is accepted: it simply never brings them.
 */
export async function checkAudience(strapi: Core.Strapi, consumerId: string, events: string[] | undefined): Promise<void> {
  if (!events) return;
  const types = getService(strapi, 'webhook-event-types');
  const staffOnly = events.filter((event) => types.definition(event)?.audience === 'staff');
  if (staffOnly.length === 0 || (await getService(strapi, 'staff').isStaffConsumer(consumerId))) return;
  throw new InvalidEventsError(
    staffOnly,
    `${staffOnly.join(', ')} ${staffOnly.length === 1 ? 'is' : 'are'} about drafts and sent to the site's staff only: subscribe to the published events instead`
  );
}

export function testPayload(row: SubscriptionRow): TestEventData {
  return { subscription_id: row.uuid, message: 'This is a test event. Verify its signature with your subscription secret.' };
}

/** The non-blocking reachability probe: its result is logged, never part of the answer. */
function probe(strapi: Core.Strapi, row: SubscriptionRow): void {
  getService(strapi, 'platform')
    .outbound()
    .request(row.endpoint_url, { method: 'HEAD', timeoutMs: 5_000, maxResponseBytes: 0 })
    .then(
      (response) => strapi.log.info(`[api-suite] webhooks: ${row.endpoint_url} is reachable (HEAD answered ${response.status})`),
      (error: Error) => strapi.log.warn(`[api-suite] webhooks: ${row.endpoint_url} did not answer a reachability probe: ${error.message}`)
    );
}
