import { z } from 'zod';
import { contentTypeUid as uid, type Env, parseBoolean, parseCount, parseList } from '../../config-env';

/** The webhooks feature's settings (`webhooks` in config/plugins.ts): delivery, fair shares, content events and caps. */

/** A number of webhook subscriptions: 0 lets a plan's consumers create none. */
const subscriptionCap = z.number().int('must be a whole number').min(0).max(1_000_000);

export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** "5,300,1800" → [5, 300, 1800]; an empty value means no retry; unset means the default. */
export function parseSchedule(value: string | undefined): number[] {
  if (value === undefined) return DEFAULT_RETRY_SCHEDULE_SECONDS;
  if (value.trim() === '') return [];
  return value.split(',').map((part) => {
    const seconds = Number(part.trim());
    if (!Number.isInteger(seconds) || seconds < 0) {
      throw new Error(`WEBHOOK_RETRY_SCHEDULE must be whole seconds separated by commas, such as "5,300,1800"; "${part.trim()}" is not`);
    }
    return seconds;
  });
}

/** WEBHOOK_CONTENT_TYPES: content-type UIDs, comma-separated; unset: every `api::` type; set but empty: none. */
export function parseContentTypes(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return parseList(value) ?? [];
}

/** WEBHOOK_POPULATE: "recipe=2,api::chef.chef=0" (a type's singular name or UID, and a depth). */
export function parsePopulate(value: string | undefined): Record<string, number> {
  const depths: Record<string, number> = {};
  for (const part of parseList(value) ?? []) {
    const match = /^([^=\s]+)\s*=\s*(\d+)$/.exec(part);
    if (!match) throw new Error(`WEBHOOK_POPULATE must read like "recipe=2,api::chef.chef=0"; "${part}" does not`);
    depths[match[1]] = Number(match[2]);
  }
  return depths;
}

/** Failed deliveries in a row before an endpoint's owner is warned (docs/webhooks.md#endpoint-health). */
export const DEFAULT_FAILING_AFTER = 20;

/** WEBHOOK_MAX_SUBSCRIPTIONS: subscriptions a consumer may hold when their plan has no cap of its own. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 100;

/**
 * WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN's default, for the plans a new site starts with
 * (features/access/services/plans.ts): ten times apart like their requests a minute (10, 100,
 * 1,000), so a plan's subscriptions grow with what it pays for. free reaches no webhook route
 * unless an editor opens it, and then gets room to try them; pro the number a business's
 * integrations need (a few per receiving service and environment) with room to spare;
 * enterprise, whose customers run many tenants and environments, ten times that.
 */
export const DEFAULT_MAX_SUBSCRIPTIONS_BY_PLAN: Readonly<Record<string, number>> = { free: 10, pro: 100, enterprise: 1_000 };

/**
 * WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN: "pro:25,enterprise:250", a plan's name (as the plans table
 * holds it, any case) and its cap; unset: the defaults above; set but empty: no plan has its own
 * cap. Names are kept lowercase, as they are matched.
 */
export function parsePlanCaps(value: string | undefined): Record<string, number> {
  if (value === undefined) return { ...DEFAULT_MAX_SUBSCRIPTIONS_BY_PLAN };
  const caps: Record<string, number> = {};
  for (const part of parseList(value) ?? []) {
    // One colon: "pro:25;enterprise:250" is a typo, not a plan named "pro:25;enterprise" (a
    // name with a colon is set in config/plugins.ts instead).
    const match = /^([^:]*[^:\s])\s*:\s*(\d{1,7})$/.exec(part);
    if (!match) {
      throw new Error(
        `WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN must read like "pro:25,enterprise:250" (a plan's name, a colon, a whole number); "${part}" does not`
      );
    }
    const name = match[1].toLowerCase();
    if (name in caps)
      throw new Error(`WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN names the plan "${match[1]}" twice (names are matched in any case)`);
    caps[name] = Number(match[2]);
  }
  return caps;
}

export const webhooksConfigSchema = z
  .object({
    retryScheduleSeconds: z
      .array(
        z
          .number()
          .int()
          .min(0)
          .max(7 * 24 * 3600)
      )
      .max(50),
    concurrency: z.number().int().min(1).max(10_000),
    /**
     * Requests open at once to one endpoint (a subscription's URL): its fair share of this
     * process's `concurrency`, and with Redis of every worker process together.
     */
    endpointConcurrency: z.number().int().min(1).max(10_000),
    /**
     * Requests one consumer's endpoints may have open at once in a process, all their hosts
     * together, while another consumer's send waits (or while they answer slowly). Unset: twice
     * `endpointConcurrency`.
     */
    consumerConcurrency: z.number().int().min(1).max(10_000).optional(),
    /** How long a process's hold on an endpoint's request slot lasts unless renewed (a killed process's slots free after this). */
    endpointLeaseMs: z.number().int().min(1_000).max(600_000),
    /** Whether this process sends deliveries; false for web-only processes beside worker processes. */
    worker: z.boolean(),
    /**
     * `WEBHOOK_FAILING_AFTER`: failed attempts in a row after which a subscription's owner is warned
     * (an e-mail and `subscription.failing`), before the 100th disables it; 0: no warning.
     */
    failingAfter: z.number().int('must be a whole number').min(0).max(99, 'must be below 100, where a subscription is disabled'),
    /** `WEBHOOK_SEND_TRACEPARENT`: deliveries carry the publish's W3C `traceparent` (tracing on only; docs/operations.md#traces). */
    sendTraceparent: z.boolean(),
    /**
     * The site's content types whose changes are events and whose content API plans sell
     * (docs/webhooks.md#the-sites-own-content): unset, every `api::` type; `[]`, none.
     */
    contentTypes: z.array(uid).optional(),
    /**
     * How deep relations, media and components are filled in a content event's payload, by
     * content-type UID or singular name (`0`: ids only); unset types get 1.
     */
    populate: z.record(
      z.string().regex(/^([a-z0-9-]+|(api|plugin)::[a-z0-9-]+\.[a-z0-9-]+)$/, 'must be a content-type UID or singular name'),
      z.number().int().min(0).max(3)
    ),
    /**
     * The most webhook subscriptions one consumer may hold (docs/webhooks.md#creating-and-changing-a-subscription),
     * by the name of the consumer's plan (matched case-insensitively), `default` for a plan not
     * named; administrators are not capped. Beyond it, creating is 409 `too_many_subscriptions`.
     */
    maxSubscriptions: z
      .object({
        default: subscriptionCap,
        plans: z
          .record(z.string().min(1, 'plan names must not be empty').max(100, 'plan names are at most 100 characters'), subscriptionCap)
          .refine(
            (plans) => new Set(Object.keys(plans).map((name) => name.trim().toLowerCase())).size === Object.keys(plans).length,
            'names a plan twice (plan names are matched case-insensitively)'
          ),
      })
      .strict(),
  })
  .strict();

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;

export function webhooksConfigDefaults(env: Env): WebhooksConfig {
  return {
    retryScheduleSeconds: parseSchedule(env('WEBHOOK_RETRY_SCHEDULE')),
    concurrency: env.int('WEBHOOK_CONCURRENCY', 50) as number,
    endpointConcurrency: env.int('WEBHOOK_ENDPOINT_CONCURRENCY', 10) as number,
    consumerConcurrency: env('WEBHOOK_CONSUMER_CONCURRENCY') ? env.int('WEBHOOK_CONSUMER_CONCURRENCY') : undefined,
    endpointLeaseMs: (env.int('WEBHOOK_ENDPOINT_LEASE_SECONDS', 15) as number) * 1000,
    worker: parseBoolean(env('WEBHOOK_WORKER'), true, 'WEBHOOK_WORKER'),
    failingAfter: parseCount(env('WEBHOOK_FAILING_AFTER'), DEFAULT_FAILING_AFTER, 'WEBHOOK_FAILING_AFTER'),
    sendTraceparent: parseBoolean(env('WEBHOOK_SEND_TRACEPARENT'), false, 'WEBHOOK_SEND_TRACEPARENT'),
    contentTypes: parseContentTypes(env('WEBHOOK_CONTENT_TYPES')),
    populate: parsePopulate(env('WEBHOOK_POPULATE')),
    maxSubscriptions: {
      default: parseCount(env('WEBHOOK_MAX_SUBSCRIPTIONS'), DEFAULT_MAX_SUBSCRIPTIONS, 'WEBHOOK_MAX_SUBSCRIPTIONS'),
      plans: parsePlanCaps(env('WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN')),
    },
  };
}

/** The cap of a consumer on `plan`: the plan's own (its name in any case), else the default. */
export function maxSubscriptionsOf(settings: WebhooksConfig['maxSubscriptions'], plan: string): number {
  const wanted = plan.trim().toLowerCase();
  const own = Object.entries(settings.plans).find(([name]) => name.trim().toLowerCase() === wanted);
  return own ? own[1] : settings.default;
}
