import { z } from 'zod';
import { MAX_ID, pageLimit, pageNumber, requireAChange, rowId, rowIdParam } from '../../../http/validation';

/** Bodies and queries of the access routes, validated at the edge; their inferred types feed the controllers. */
const scope = z.enum(['read', 'write']);

export const createKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    scopes: z
      .array(scope)
      .min(1, 'must name at least one scope')
      .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope')
      .optional(),
    expires_at: z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
      .refine((value) => new Date(value).getTime() > Date.now(), 'must be in the future')
      .optional(),
    plan_id: rowId.optional(),
    user_id: rowId.optional(),
  })
  .strict();
export type CreateKeyBody = z.infer<typeof createKeyBody>;
/** The body as a client sends it (before defaults). */
export type CreateKeyInput = z.input<typeof createKeyBody>;

export const listKeysQuery = z.object({
  page: pageNumber,
  limit: pageLimit,
  user_id: rowIdParam.optional(),
});

export const keyIdParam = rowIdParam;

export const usageQuery = z.object({
  from: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
  to: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
  granularity: z.enum(['minute', 'hour', 'day']).default('hour'),
  key_id: rowIdParam.optional(),
});
export type UsageQuery = z.infer<typeof usageQuery>;

export const usageStreamQuery = usageQuery.extend({ interval: z.coerce.number().int().min(1).max(5).default(5) });

/** `@public`, `@private`, `@content` (the groups) or "<METHOD> <path>" with `*` wildcards. */
const ENDPOINT_ENTRY = /^(@public|@private|@content|(\*|GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\*|\/\S*))$/;

/** Admin panel: a plan as an editor creates it. */
export const planBody = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    requests_per_month: z.number({ message: 'must be a number' }).int('must be a whole number').min(-1, 'must be -1 (unlimited) or more'),
    requests_per_minute: z.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1'),
    endpoints: z
      .array(
        z
          .string()
          .trim()
          .regex(
            ENDPOINT_ENTRY,
            'each entry must be @public, @private, @content or "<METHOD> <path>", such as "GET /api/v1/articles*" or "* *"'
          )
      )
      .min(1, 'must name at least one endpoint')
      .max(200, 'must name at most 200 endpoints'),
    price_monthly: z.number({ message: 'must be a number' }).min(0, 'must be 0 or more').max(1_000_000, 'must be at most 1,000,000'),
    is_default: z.boolean().optional(),
    currency: z
      .string()
      .regex(/^[a-z]{3}$/, 'must be a lowercase ISO 4217 code such as eur')
      .nullable()
      .optional(),
    overage_unit_amount: z
      .number({ message: 'must be a number' })
      .int('must be a whole number of minor units')
      .min(0, 'must be 0 or more')
      .max(100_000_000, 'must be at most 100,000,000')
      .nullable()
      .optional(),
    price_yearly: z
      .number({ message: 'must be a number' })
      .positive('must be above 0, or null for no yearly price')
      .max(12_000_000, 'must be at most 12,000,000')
      .nullable()
      .optional(),
    trial_days: z
      .number({ message: 'must be a number' })
      .int('must be a whole number of days')
      .min(0, 'must be between 0 and 90')
      .max(90, 'must be between 0 and 90')
      .optional(),
  })
  .strict();
export type PlanBody = z.infer<typeof planBody>;

export const planUpdateBody = requireAChange(planBody.partial());

/**
 * Admin panel: a key issued by an editor names its owner, and a plan only when it should keep that
 * plan whatever its owner is on; without one it follows its owner's plan, as a consumer's own keys do.
 */
export const adminIssueKeyBody = createKeyBody.extend({
  user_id: z.number({ message: 'choose the user who owns the key' }).int().positive().max(MAX_ID),
  plan_id: z.number({ message: 'must be a plan id' }).int().positive().max(MAX_ID).optional(),
});

export const adminKeysQuery = listKeysQuery;

export const adminUsageQuery = z.object({
  key_id: rowIdParam.optional(),
  interval: z.coerce.number().int().min(1).max(5).default(5),
});

export const consumersQuery = z.object({
  q: z.string().max(100).default(''),
  page: pageNumber,
  limit: pageLimit,
});

/** `POST /api/v1/keys/{id}/reroll`: how long the old key keeps working (seconds, at most 30 days). */
export const rerollBody = z
  .object({
    grace_seconds: z
      .number({ message: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(0, 'must be 0 or more')
      .max(2_592_000, 'must be at most 2,592,000 (30 days)')
      .default(86_400),
  })
  .strict();

/** `PATCH /api/v1/keys/{id}` (administrators): the key's own limits; null goes back to the plan's. */
export const keyLimitsBody = requireAChange(
  z
    .object({
      requests_per_minute: z
        .number({ message: 'must be a number' })
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(1_000_000_000)
        .nullable()
        .optional(),
      requests_per_month: z
        .number({ message: 'must be a number' })
        .int('must be a whole number')
        .min(-1, 'must be -1 (unlimited) or more')
        .max(1_000_000_000_000)
        .nullable()
        .optional(),
    })
    .strict()
);

/** The reroll body as a client sends it. */
export type RerollInput = z.input<typeof rerollBody>;

/** `PATCH /api/v1/consumers/{userId}` (administrators): the plan granted to a consumer; null takes it back. */
export const grantPlanBody = z.object({ plan_id: rowId.nullable() }).strict();
export type GrantPlanBody = z.infer<typeof grantPlanBody>;
export const userIdParam = rowIdParam;
