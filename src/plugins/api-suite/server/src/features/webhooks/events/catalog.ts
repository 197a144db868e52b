import { z } from 'zod';
import { defineEvent } from './registry';

/**
 * The webhooks feature's own event: the test event, sent when a subscription is created and on
 * demand. Every other event type is registered by the feature that publishes it (registry.ts).
 */
export const TEST_EVENT_TYPE = 'webhook.test';
export const WILDCARD = '*';

/**
 * The names a subscription's `events` may hold besides a type's own: `*` (every type) and a
 * prefix ending in `.*` (`recipe.*`: every type whose name starts with `recipe.`).
 */
export function isPrefixPattern(entry: string): boolean {
  return entry.length > 2 && entry.endsWith('.*') && !entry.slice(0, -2).includes('*');
}

/** Whether an `events` entry names this type. */
export function patternMatches(entry: string, type: string): boolean {
  if (entry === WILDCARD || entry === type) return true;
  return isPrefixPattern(entry) && type.startsWith(entry.slice(0, -1));
}

/** The entries that name a type besides its own name: each prefix pattern it falls under, and `*`. */
export function patternsOf(type: string): string[] {
  const patterns: string[] = [];
  for (let at = type.indexOf('.'); at !== -1; at = type.indexOf('.', at + 1)) patterns.push(`${type.slice(0, at)}.*`);
  patterns.push(WILDCARD);
  return patterns;
}

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
