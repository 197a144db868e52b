import { z } from 'zod';
import { pageOf } from '../../../contract/common';

/** What the access routes answer (keys, plans, usage, OAuth tokens): the one description behind the OpenAPI document and the admin's types. */

const id = z.int().min(1);
const dateTime = z.iso.datetime();

export const scope = z.enum(['read', 'write']);
export const keyStatus = z
  .enum(['active', 'revoked', 'expired'])
  .meta({ description: '`expired` once `expires_at` has passed (also for a revoked key).' });
const keyPrefix = z.string().length(8).regex(/^sk_/).meta({ description: 'The first 8 characters of the key.' });
const clientId = z
  .string()
  .regex(/^ci_[A-Za-z0-9]{24}$/)
  .meta({ description: 'The OAuth client id of this key.' });

export const apiKey = z
  .object({
    id,
    name: z.string().nullable(),
    key_prefix: keyPrefix,
    client_id: clientId,
    plan_id: z
      .int()
      .nullable()
      .meta({ description: "The plan the key is on now: its owner's plan, unless an administrator issued it on a plan of its own." }),
    user_id: z.int().nullable(),
    scopes: z.array(scope).meta({ uniqueItems: true }),
    status: keyStatus,
    expires_at: dateTime.nullable(),
    revoked_at: dateTime.nullable(),
    created_at: dateTime,
  })
  .meta({ description: 'A key as listed: never the key itself.' });
export type ApiKey = z.infer<typeof apiKey>;

export const newApiKey = apiKey
  .omit({ revoked_at: true })
  .extend({ key: z.string().regex(/^sk_[A-Za-z0-9]{48}$/), scopes: z.array(scope).min(1).meta({ uniqueItems: true }) })
  .meta({ description: 'A key just issued. `key` is shown here and never again (only its SHA-256 hash is stored).' });
export type NewApiKey = z.infer<typeof newApiKey>;

export const keyCreated = z.object({ data: newApiKey });

/** Admin panel: a key issued by `POST /api-suite/access/keys`, as that route writes it: the key as listed (`revoked_at` included, null) with the key itself, shown once. */
export const adminIssuedKey = newApiKey
  .extend({ revoked_at: z.null().meta({ description: 'Always null: the key was just issued.' }) })
  .meta({ description: 'A key an editor just issued. `key` is shown here and never again (only its SHA-256 hash is stored).' });
export type AdminIssuedKey = z.infer<typeof adminIssuedKey>;

export const rerolledKey = newApiKey
  .extend({
    replaces: id.meta({ description: 'The id of the key this one replaces.' }),
    old_expires_at: dateTime.meta({ description: 'When the old key stops working (then it answers 403 `key_expired`).' }),
  })
  .meta({
    description:
      'A key just made by a reroll: same name, plan, scopes, owner, expiry, own limits and quota as the key it replaces. `key` is shown here and never again.',
  });
export type RerolledKey = z.infer<typeof rerolledKey>;
export const keyRerolled = z.object({ data: rerolledKey });

export const keyWithLimits = apiKey
  .extend({
    requests_per_minute: z.int().min(1).nullable().meta({ description: "This key's own limit; null: the plan's." }),
    requests_per_month: z.int().min(-1).nullable().meta({ description: "This key's own limit (-1 unlimited); null: the plan's." }),
  })
  .meta({ description: 'A key with its own limits, which its quotas and rate-limit headers follow.' });
export type KeyWithLimits = z.infer<typeof keyWithLimits>;
export const keyLimitsUpdated = z.object({ data: keyWithLimits });
export const keyList = pageOf(apiKey);

export const plan = z.object({
  id,
  name: z.string(),
  requests_per_month: z.int().min(-1).meta({ description: '-1 for unlimited.' }),
  requests_per_minute: z.int().min(0),
  endpoints: z.array(z.string().regex(/^\S+ \S+$/)).meta({
    description: 'Resolved `"<METHOD> <path>"` entries; `*` stands for any method or for the rest of a path.',
    examples: [['GET /api/v1/articles*'], ['* *']],
  }),
  price_monthly: z.number().min(0),
});
export type Plan = z.infer<typeof plan>;
export const planList = z.object({ data: z.array(plan) });

export const consumerPlan = z
  .object({
    id: id.meta({ description: 'The user id.' }),
    plan_id: z.int().nullable().meta({ description: 'The plan an administrator granted; null: none.' }),
    effective_plan_id: id.meta({
      description: 'The plan the consumer is on now, which every key of theirs without a plan of its own and their JWT follow.',
    }),
    plan_source: z
      .enum(['subscription', 'grant', 'default'])
      .meta({ description: 'Why: a live billing subscription comes first, then the grant, then the default plan.' }),
  })
  .meta({ description: "A consumer's plan." });
export type ConsumerPlanAnswer = z.infer<typeof consumerPlan>;
export const consumerPlanResponse = z.object({ data: consumerPlan });

const planRef = z.object({ id, name: z.string() });

/** Admin panel: a key as `GET /api-suite/access/keys` lists it, with its owner, its plan and why, and the owner's plan and why. */
export const adminApiKey = keyWithLimits
  .extend({
    plan_source: z
      .enum(['key', 'consumer'])
      .meta({ description: "`key`: issued on a plan of its own; `consumer`: follows its owner's plan." }),
    replaced_by: id.nullable().meta({ description: 'The key that replaced this one by a reroll.' }),
    replaced_by_prefix: z.string().nullable(),
    user: z.object({ id, username: z.string(), email: z.string(), consumer_id: z.string() }).nullable(),
    plan: planRef.nullable(),
    owner_plan: z
      .object({
        id,
        name: z.string(),
        source: consumerPlan.shape.plan_source,
        granted: planRef.nullable().meta({ description: 'The plan an administrator granted, if any.' }),
      })
      .nullable()
      .meta({ description: 'The plan the owner is on now and why; null for a key without an owner.' }),
  })
  .meta({ description: 'A key as the admin panel lists it (never the key itself).' });
export type AdminApiKey = z.infer<typeof adminApiKey>;

/** What a plan holds now, by the access model's rule (a key without a plan of its own follows its owner's). */
export const planHolding = z.object({
  keys: z.int().min(0).meta({ description: 'Active keys on the plan: issued on it, or following an owner who is on it.' }),
  consumers: z.int().min(0).meta({ description: 'Consumers on the plan now, whether by subscription, grant or default.' }),
});
export type PlanHolding = z.infer<typeof planHolding>;

/** Admin panel: a consumer as `GET /api-suite/access/consumers` lists it, with the plan they are on and why. */
export const adminConsumer = z
  .object({
    id: id.meta({ description: 'The user id.' }),
    username: z.string(),
    email: z.string(),
    consumer_id: z.string(),
    plan: planRef.extend({ source: consumerPlan.shape.plan_source }),
    granted: planRef.nullable().meta({ description: 'The plan an administrator granted, if any (a live subscription still comes first).' }),
    keys: z.int().min(0).meta({ description: 'Active keys of the consumer.' }),
  })
  .meta({ description: 'A consumer with the plan they are on now and why.' });
export type AdminConsumer = z.infer<typeof adminConsumer>;
export const adminConsumerList = pageOf(adminConsumer);

export const usageReport = z.object({
  total: z.int().min(0),
  by_status: z
    .record(z.string().regex(/^[1-5][0-9]{2}$/), z.int().min(0))
    .meta({ description: 'Requests by HTTP status code.', examples: [{ '200': 12, '429': 1 }] }),
  series: z
    .array(z.object({ t: dateTime.meta({ description: 'Start of the bucket.' }), count: z.int().min(0) }))
    .meta({ description: 'Every bucket from `from` to `to`, zeros included.' }),
  month: z
    .object({
      used: z.int().min(0),
      quota: z.int().min(-1),
      remaining: z.int().min(0).nullable().meta({ description: 'quota − used, or null when unlimited.' }),
    })
    .meta({
      description:
        "This calendar month (UTC) of the pool the requests draw on: the consumer's one allowance on their plan, shared by every key, token and JWT of theirs (or, for a key with limits of its own, that key's). Never a sum over keys. Administrators: unlimited (-1).",
    }),
  plan: z
    .object({
      id,
      name: z.string(),
      own_limits: z.boolean().meta({ description: "The figures are of one key with limits of its own, not of the consumer's plan." }),
    })
    .nullable()
    .meta({ description: 'The plan behind `month`; null for administrators, who are held to no plan.' }),
});
export type UsageReport = z.infer<typeof usageReport>;
export const usageResponse = z.object({ data: usageReport });

/** Admin panel: a plan as `/api-suite/access/plans` answers it: the API's, with endpoints as stored (`@public`, …), the default flag, its Stripe ids and its number of keys. */
export const adminPlan = plan.extend({
  endpoints: z.array(z.string()).meta({ description: 'As stored: `"<METHOD> <path>"` entries and `@group` names.' }),
  is_default: z.boolean(),
  currency: z.string().nullable().meta({ description: "The plan's own currency, or null for the shop's." }),
  overage_unit_amount: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'Minor units per 1,000 requests over the monthly quota; null: a hard limit.' }),
  price_yearly: z
    .number()
    .positive()
    .nullable()
    .meta({ description: 'The price of a year, in the same unit as `price_monthly`; null: sold monthly only.' }),
  trial_days: z.int().min(0).max(90).meta({ description: "Free days before a consumer's first payment, on their first purchase only." }),
  stripe_product_id: z.string().nullable(),
  stripe_price_id: z.string().nullable(),
  stripe_metered_price_id: z.string().nullable(),
  stripe_yearly_price_id: z.string().nullable(),
  ...planHolding.shape,
});
export type AdminPlan = z.infer<typeof adminPlan>;

/** Admin panel: `GET /api-suite/access/usage`, the last hour of one key or of all, with the pool's month for one key. */
export const adminUsage = usageReport.extend({
  month: usageReport.shape.month
    .nullable()
    .meta({ description: 'The month of the pool the chosen key draws on; null for all keys together.' }),
  key_id: id.nullable(),
  from: dateTime,
  to: dateTime,
});
export type AdminUsage = z.infer<typeof adminUsage>;

/**
 * The token request as RFC 6749 section 4.4 has it. The token endpoint reads it by hand rather
 * than with this schema, because every refusal must be an RFC error (`invalid_request`, …), not a
 * validation_error; this schema is what the document shows.
 */
export const tokenRequest = z
  .object({
    grant_type: z.enum(['client_credentials']),
    client_id: clientId.optional().meta({ description: "The key's `client_id`." }),
    client_secret: z.string().optional().meta({ description: 'The full API key.' }),
    scope: z
      .string()
      .optional()
      .meta({ description: "Space-separated; a subset of the key's scopes (default: all of them).", examples: ['read', 'read write'] }),
  })
  .meta({
    description:
      'RFC 6749 section 4.4. The client may authenticate with HTTP Basic (`client_id:client_secret`) instead of the body fields, but not both.',
  });

export const tokenResponse = z.object({
  access_token: z.string().meta({ description: 'An HS256 JWT; stops working as soon as its key is revoked.' }),
  token_type: z.literal('Bearer'),
  expires_in: z.literal(3600),
  scope: z.string().meta({ description: 'The granted scopes, space-separated.' }),
});

/** A consumer's requests by month as the account export (`GET /api/v1/account/export`) shows them. */
export const accountUsageMonth = z.object({
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .meta({ description: 'The calendar month (UTC), `YYYY-MM`.' }),
  total: z.int().min(0).meta({ description: 'Requests counted for the consumer in that month, refusals included.' }),
  by_status: z.record(z.string(), z.int().min(0)).meta({ description: 'The same requests by HTTP status.' }),
});
export type AccountUsageMonth = z.infer<typeof accountUsageMonth>;
