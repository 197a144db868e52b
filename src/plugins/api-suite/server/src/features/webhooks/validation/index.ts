import { z } from 'zod';
import { outboundHeaders, httpUrl, pageLimit, pageNumber, pageQuery, requireAChange } from '../../../http/validation';

/** Bodies and queries of the webhook routes (docs/webhooks.md), validated at the edge. */
export const MAX_EVENTS_PER_SUBSCRIPTION = 100;
export const MAX_PUBLISH_BATCH = 1000;

const endpointUrl = httpUrl;

const eventName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

const events = z
  .array(eventName)
  .min(1, 'must name at least one event type')
  .max(MAX_EVENTS_PER_SUBSCRIPTION, `must name at most ${MAX_EVENTS_PER_SUBSCRIPTION} event types`);

const headers = outboundHeaders;

const description = z.string().max(1000, 'must be at most 1000 characters');
const rateLimit = z
  .number()
  .int('must be a whole number of deliveries per second')
  .min(1, 'must be between 1 and 1000, or null for no limit')
  .max(1000, 'must be between 1 and 1000, or null for no limit')
  .nullable();
const timeoutSeconds = z
  .number()
  .int('must be a whole number of seconds')
  .min(1, 'must be between 1 and 30')
  .max(30, 'must be between 1 and 30');

/** A filter's JSON at most (a filter is applied to every event of its types, so its size is bounded). */
export const MAX_FILTER_CHARACTERS = 10_000;

/**
 * A payload filter in Strapi's filter syntax: an object here; whether it can be applied (its
 * operators, and its fields against the event schemas) is checked where it is saved, which
 * answers 422 invalid_filter with the place (docs/webhooks.md#payload-filters).
 */
export const filterBody = z
  .record(z.string(), z.unknown(), { message: "must be an object in Strapi's filter syntax, or null for none" })
  .refine((value) => JSON.stringify(value).length <= MAX_FILTER_CHARACTERS, `must be at most ${MAX_FILTER_CHARACTERS} characters of JSON`)
  .meta({
    description:
      "Strapi's filter syntax applied to the event's `data`: `{ field: { $operator: value } }`, nested objects by nesting, `$and`, `$or`, `$not`, a bare value meaning `$eq`. See docs/webhooks.md#payload-filters.",
    examples: [{ total: { $gte: 100 }, currency: 'EUR' }],
  });

export const createSubscriptionBody = z
  .object({
    endpoint_url: endpointUrl,
    events,
    description: description.optional(),
    headers: headers.optional(),
    timeout_seconds: timeoutSeconds.optional(),
    rate_limit: rateLimit.optional(),
    filter: filterBody.nullable().optional(),
  })
  .strict();
export type CreateSubscriptionBody = z.infer<typeof createSubscriptionBody>;
/** The body as a client sends it (before defaults). */
export type CreateSubscriptionInput = z.input<typeof createSubscriptionBody>;

export const updateSubscriptionBody = requireAChange(
  z
    .object({
      endpoint_url: endpointUrl.optional(),
      events: events.optional(),
      description: description.optional(),
      headers: headers.optional(),
      timeout_seconds: timeoutSeconds.optional(),
      rate_limit: rateLimit.optional(),
      filter: filterBody.nullable().optional(),
      is_active: z.boolean().optional(),
    })
    .strict()
);
export type UpdateSubscriptionBody = z.infer<typeof updateSubscriptionBody>;
export type UpdateSubscriptionInput = z.input<typeof updateSubscriptionBody>;

export const listQuery = pageQuery;

export const deliveriesQuery = z.object({
  page: pageNumber,
  limit: pageLimit,
  status: z.enum(['pending', 'succeeded', 'failed', 'retrying', 'cancelled']).optional(),
});

export const uuidParam = z.uuid();

/** How far back a recovery may reach (14 days): older failures are history, not work. */
export const RECOVER_MAX_AGE_DAYS = 14;
const instant = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-01T12:00:00Z' })
  .transform((value) => new Date(value));

/** Recover: `{ since, until? }`; `since` within the last 14 days, `until` (default now) after it. */
export const recoverBody = z
  .object({ since: instant, until: instant.optional() })
  .strict()
  .superRefine((body, ctx) => {
    // Runs even when a field was refused; those issues are already reported.
    if (!(body.since instanceof Date) || (body.until !== undefined && !(body.until instanceof Date))) return;
    const oldest = Date.now() - RECOVER_MAX_AGE_DAYS * 86_400_000;
    if (body.since.getTime() < oldest)
      ctx.addIssue({ code: 'custom', path: ['since'], message: `must be within the last ${RECOVER_MAX_AGE_DAYS} days` });
    if (body.until && body.until.getTime() < body.since.getTime())
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before since' });
  });
export type RecoverBody = z.infer<typeof recoverBody>;
/** As a client sends it: ISO 8601 strings. */
export type RecoverInput = z.input<typeof recoverBody>;

const payload = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'must be a JSON object'
);
const event = z.object({ type: eventName, payload }).strict();

const batch = z
  .object({
    events: z.array(event).min(1, 'must hold at least one event').max(MAX_PUBLISH_BATCH, `must hold at most ${MAX_PUBLISH_BATCH} events`),
  })
  .strict();

/** `{ type, payload }` or `{ events: [{ type, payload }] }`; the batch form is chosen by its key. */
export function parsePublishBody(body: unknown): { batch: boolean; events: Array<z.infer<typeof event>> } {
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'events' in body) {
    return { batch: true, events: batch.parse(body).events };
  }
  return { batch: false, events: [event.parse(body)] };
}

/** Admin panel: pause a subscription or re-enable one (which clears its failure count), or change its payload filter. */
export const adminSubscriptionUpdateBody = requireAChange(
  z
    .object({
      is_active: z.boolean({ message: 'must be true or false' }).optional(),
      filter: filterBody.nullable().optional(),
    })
    .strict()
);

/** Try a filter on an event type's example, or on a payload: `{ filter, type, payload? }`. */
export const filterTestBody = z
  .object({
    filter: filterBody,
    type: eventName,
    payload: z
      .custom<Record<string, unknown>>(
        (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
        'must be a JSON object'
      )
      .optional()
      .meta({ description: "The event's `data` to try; the type's example payload when left out." }),
  })
  .strict();
export type FilterTestInput = z.input<typeof filterTestBody>;

const jsonValue = z.custom<unknown>((value) => value !== undefined, 'must be JSON');

/** Admin panel: an event type's description, example payload and switch. */
export const eventTypeUpdateBody = requireAChange(
  z
    .object({
      description: description.optional(),
      example_payload: jsonValue
        .refine((value) => JSON.stringify(value).length <= 20_000, 'must be at most 20,000 characters of JSON')
        .optional(),
      is_active: z.boolean({ message: 'must be true or false' }).optional(),
    })
    .strict()
);

export const eventTypeNameParam = z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/);

/** The publish body as the OpenAPI document shows it: one event, or a batch (parsed by `parsePublishBody`). */
export const publishBody = z.union([event, batch]);
