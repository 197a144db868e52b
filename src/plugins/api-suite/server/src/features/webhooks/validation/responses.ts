import { z } from 'zod';
import { consumer } from '../../../contract/common';

/**
 * What the webhook routes answer: the one description behind the services' presenters and the
 * admin's types (and, next, the OpenAPI document's `/api/webhooks` part).
 */

const dateTime = z.iso.datetime();

export const subscription = z.object({
  id: z.uuid(),
  consumer_id: z.uuid(),
  endpoint_url: z.url(),
  description: z.string(),
  events: z.array(z.string()),
  is_active: z.boolean(),
  headers: z.record(z.string(), z.string()),
  timeout_seconds: z.int().min(1).max(30),
  rate_limit: z
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .meta({ description: 'Deliveries per second at most; null = unlimited. Deliveries beyond it wait their turn.' }),
  filter: z.record(z.string(), z.unknown()).nullable().meta({
    description: "Only events whose `data` matches this filter (Strapi's filter syntax) are delivered; null = every event of its types.",
  }),
  created_at: dateTime,
  updated_at: dateTime,
  last_delivery_at: dateTime.nullable(),
  failure_count: z.int().min(0),
  disabled_at: dateTime.nullable(),
  secret_rotated_at: dateTime.nullable(),
  rotation_recommended: z.boolean().meta({ description: 'True once the secret is older than the recommended 90 days.' }),
});
export type Subscription = z.infer<typeof subscription>;

export const deliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'retrying', 'cancelled']);

export const delivery = z.object({
  id: z.uuid().meta({ description: 'Also the `webhook-id` header, stable across retries.' }),
  subscription_id: z.uuid(),
  event_id: z.string(),
  event_type: z.string(),
  payload: z.unknown().meta({ description: "The published payload: the body's `data`." }),
  status: deliveryStatus,
  attempts: z.int().min(0),
  next_attempt_at: dateTime.nullable().meta({ description: 'Null when no further attempt is scheduled.' }),
  response_status: z.int().nullable(),
  created_at: dateTime,
  delivered_at: dateTime.nullable(),
});
export type Delivery = z.infer<typeof delivery>;

export const attempt = z.object({
  attempt: z.int().min(1),
  at: dateTime,
  status_code: z.int().nullable(),
  duration_ms: z.int().min(0).nullable(),
  error: z.string().nullable(),
  response_body: z.string().nullable().meta({ description: "The first characters of the receiver's answer." }),
});
export type Attempt = z.infer<typeof attempt>;

export const deliveryDetail = delivery.omit({ attempts: true }).extend({ attempts: z.array(attempt) });
export type DeliveryDetail = z.infer<typeof deliveryDetail>;

export const testOutcome = z.object({
  delivery_id: z.uuid(),
  delivered: z.boolean(),
  status_code: z.int().nullable(),
  duration_ms: z.int().min(0),
});
export type TestOutcome = z.infer<typeof testOutcome>;

/** What `filter-test` answers: whether the data (the type's example, or the payload given) matches the filter. */
export const filterTestOutcome = z.object({
  matches: z.boolean(),
  type: z.string().meta({ description: 'The event type whose schema the filter was checked against.' }),
});
export type FilterTestOutcome = z.infer<typeof filterTestOutcome>;

export const recovered = z.object({
  deliveries: z.int().min(0).meta({ description: 'How many failed or cancelled deliveries were queued again.' }),
});
export type Recovered = z.infer<typeof recovered>;

export const eventType = z.object({
  name: z.string(),
  description: z.string(),
  example_payload: z.unknown().meta({ description: "An example of the event's `data`; it validates against `schema`." }),
  schema: z.record(z.string(), z.unknown()).meta({
    description: "The JSON Schema (draft 2020-12) of the event's `data`: every delivered payload of this type validates against it.",
  }),
  audience: z.enum(['everyone', 'named', 'consumer', 'staff']).meta({
    description:
      "Who receives it: `everyone` subscribed to it; `named`, only the consumers each event concerns; `consumer`, only the one consumer it is about; `staff`, only the site's staff (administrators and draft-reader roles): events about drafts.",
  }),
});
export type EventType = z.infer<typeof eventType>;

/** Admin panel: a subscription as the admin routes answer it: the API's, with its consumer. */
export const adminSubscription = subscription.extend({ consumer: consumer.nullable() });
export type AdminSubscription = z.infer<typeof adminSubscription>;

/** Admin panel: an event type as the admin routes answer it: the API's, with whether it is switched on and may be published by hand. */
export const adminEventType = eventType.extend({
  is_active: z.boolean(),
  publishable: z.boolean().meta({
    description:
      "Whether an administrator may publish it by hand: false for the events the plugin sends only to the one consumer they are about (their quota, their endpoints' health).",
  }),
});
export type AdminEventType = z.infer<typeof adminEventType>;

/** Admin panel: `POST /api-suite/webhooks/events`, one event or a batch published by hand. */
export const adminPublished = z.union([
  z.object({ event_id: z.string(), deliveries: z.int().min(0) }),
  z.object({ event_ids: z.array(z.string()), deliveries: z.int().min(0) }),
]);
export type AdminPublished = z.infer<typeof adminPublished>;

/** Admin panel: `POST /api-suite/webhooks/deliveries/:id/retry`, the delivery queued again. */
export const retryQueued = z.object({ delivery_id: z.uuid(), status: z.literal('queued') });
export type RetryQueued = z.infer<typeof retryQueued>;

/** `POST /api/webhooks/subscriptions`: the subscription with its secret, shown here and at rotation only. */
export const subscriptionCreated = z.object({
  id: z.uuid(),
  endpoint_url: z.url(),
  events: z.array(z.string()),
  secret: z
    .string()
    .regex(/^[A-Za-z0-9]{32}$/)
    .meta({ description: 'Shown here and at rotation only.' }),
  created_at: z.iso.datetime(),
  test_sent: z.literal(true),
});
export type SubscriptionCreated = z.infer<typeof subscriptionCreated>;

/** `POST /api/webhooks/subscriptions/{id}/rotate-secret`: the new secret, shown once. */
export const secretRotated = z.object({
  secret: z.string().regex(/^[A-Za-z0-9]{32}$/),
  valid_until: z.iso.datetime().meta({ description: 'Until when the previous secret still signs.' }),
  note: z.string(),
});
export type SecretRotated = z.infer<typeof secretRotated>;

/** `POST /api/webhooks/events`: the event ids and the deliveries made (the admin panel's publishing answers the same). */
export const eventsPublished = adminPublished;
export type EventsPublished = AdminPublished;
