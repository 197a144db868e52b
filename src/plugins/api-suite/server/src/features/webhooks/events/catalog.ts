import { z } from 'zod';
import { defineEvent } from './registry';

/**
 * The webhooks feature's own event: the test event, sent when a subscription is created and on
 * demand. Every other event type is registered by the feature that publishes it (registry.ts).
 */
export const TEST_EVENT_TYPE = 'webhook.test';
// The `events` entries (a name, `*`, a prefix pattern) follow one rule, shared with the browsers.
export { isPrefixPattern, patternMatches, patternsOf, WILDCARD } from '../../../../../shared/event-patterns';

export const testEventData = z.strictObject({ subscription_id: z.uuid(), message: z.string() });
export type TestEventData = z.infer<typeof testEventData>;

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
];

declare module './registry' {
  interface EventPayloads {
    'webhook.test': TestEventData;
  }
}
