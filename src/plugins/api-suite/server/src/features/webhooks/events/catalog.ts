import { z } from 'zod';
import { defineEvent } from './registry';

/**
 * The webhooks feature's own events: the test event, sent when a subscription is created and on
 * demand, and the health of a consumer's endpoints, sent to their other subscriptions. Every other
 * event type is registered by the feature that publishes it (registry.ts).
 */
export const TEST_EVENT_TYPE = 'webhook.test';
// The `events` entries (a name, `*`, a prefix pattern) follow one rule, shared with the browsers.
export { isPrefixPattern, patternMatches, patternsOf, WILDCARD } from '../../../../../shared/event-patterns';

export const testEventData = z.strictObject({ subscription_id: z.uuid(), message: z.string() });
export type TestEventData = z.infer<typeof testEventData>;

export const subscriptionHealthEventData = z.strictObject({
  subscription_id: z.uuid().meta({ description: 'The subscription whose endpoint keeps failing.' }),
  endpoint_url: z.string().meta({ description: 'Its endpoint.' }),
  failure_count: z.int().min(1).meta({ description: 'Failed attempts in a row so far.' }),
  last_error: z.string().meta({ description: 'What the last attempt got: `HTTP <status>`, `timeout: …` or the connection error.' }),
});
export type SubscriptionHealthEventData = z.infer<typeof subscriptionHealthEventData>;

const failing: SubscriptionHealthEventData = {
  subscription_id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  endpoint_url: 'https://example.com/webhooks',
  failure_count: 20,
  last_error: 'HTTP 503',
};

export const WEBHOOK_EVENTS = [
  defineEvent({
    name: TEST_EVENT_TYPE,
    description: 'A test event, sent when a subscription is created and on demand.',
    schema: testEventData,
    example: { subscription_id: '0f8fad5b-d9cb-469f-a165-70867728950e', message: 'This is a test event.' },
    // Sent to one subscription at a time, whatever it subscribes to.
    audience: 'named',
    owner: 'webhooks',
  }),
  // To the owner's other subscriptions only: no other consumer learns of an endpoint's trouble.
  defineEvent({
    name: 'subscription.failing',
    description:
      "One of your endpoints keeps failing: the site's number of deliveries in a row (20 by default) failed; at 100 it is disabled.",
    schema: subscriptionHealthEventData,
    example: failing,
    audience: 'consumer',
    owner: 'webhooks',
  }),
  defineEvent({
    name: 'subscription.disabled',
    description: 'One of your endpoints failed 100 deliveries in a row and was disabled; PATCH it with is_active true to resume.',
    schema: subscriptionHealthEventData,
    example: { ...failing, failure_count: 100 },
    audience: 'consumer',
    owner: 'webhooks',
  }),
];

declare module './registry' {
  interface EventPayloads {
    'webhook.test': TestEventData;
    'subscription.failing': SubscriptionHealthEventData;
    'subscription.disabled': SubscriptionHealthEventData;
  }
}
