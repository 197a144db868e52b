import { z } from 'zod';

/**
 * The plugin's configuration. Defaults come from the environment so that a site that installs
 * the plugin gets the documented behaviour (REDIS_URL, OUTBOUND_ALLOW_PRIVATE, ...) without
 * writing any config; `config/plugins.ts` may override any key. The validator runs at boot and
 * refuses to start with a message naming every bad key.
 */
const uid = z.string().regex(/^(api|plugin)::[a-z0-9-]+\.[a-z0-9-]+$/, 'must be a content-type UID such as api::article.article');
/** A content-type UID, or the name of one of `contentTypes` (article, product, page). */
const contentTypeRef = z
  .string()
  .regex(/^(article|product|page|(api|plugin)::[a-z0-9-]+\.[a-z0-9-]+)$/, 'must be article, product, page or a content-type UID');
const attributeName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'must be an attribute name');
/**
 * Checkout sends Stripe amounts in hundredths (prices multiplied by 100: docs/commerce.md#checkout),
 * which is what Stripe expects for every currency except these zero- and three-decimal ones.
 */
export const UNSUPPORTED_CURRENCIES = [
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
  'bhd',
  'jod',
  'kwd',
  'omr',
  'tnd',
];
/** A number of webhook subscriptions: 0 lets a plan's consumers create none. */
const subscriptionCap = z.number().int('must be a whole number').min(0).max(1_000_000);
const endpointPattern = z
  .string()
  .regex(/^(\*|GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\*|\/\S*)$/, 'must be "<METHOD or *> <path, * for the rest>"');

/** A longest retention: a hundred years is as good as forever, and keeps date arithmetic finite. */
const MAX_RETENTION_DAYS = 36_500;
const MAX_PURGE_SECONDS = 365 * 86_400;
/** Days a kind of record is kept, fractions allowed; 0 keeps it forever. */
const retentionDays = (name: string) =>
  z
    .number({ message: `${name} must be a number of days` })
    .finite(`${name} must be a number of days`)
    .min(0, `${name} must be 0 (keep forever) or a positive number of days`)
    .max(MAX_RETENTION_DAYS, `${name} must be at most ${MAX_RETENTION_DAYS} days (0 keeps forever)`);

export const configSchema = z
  .object({
    contentTypes: z
      .object({
        article: uid,
        product: uid,
        page: uid,
      })
      .strict(),
    jobs: z
      .object({
        redisUrl: z
          .string()
          .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
          .optional(),
        prefix: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
        shutdownTimeoutMs: z.number().int().min(0).max(600_000),
      })
      .strict(),
    outbound: z
      .object({
        /**
         * `OUTBOUND_ALLOW_PRIVATE`: whether webhook endpoints and scraper URLs may reach private and
         * reserved addresses. Unset (the variable unset or blank, and nothing in config/plugins.ts),
         * the default: on outside production, off in it (`privateAddressesAllowed`).
         */
        allowPrivate: z.boolean().optional(),
        connectTimeoutMs: z.number().int().min(100).max(60_000),
        keepAliveTimeoutMs: z.number().int().min(100).max(600_000),
        connectionsPerOrigin: z.number().int().min(1).max(1024),
      })
      .strict(),
    access: z
      .object({
        routePrefixes: z.array(z.string().regex(/^\/\S*$/, 'must start with /')).min(1),
        /**
         * What a plan's `@public` and `@private` stand for. Unset, they are worked out from the
         * site (features/access/content-api/groups.ts): reading its content API, and all of it
         * with the scrapers and webhooks.
         */
        endpointGroups: z
          .object({
            public: z.array(endpointPattern).optional(),
            private: z.array(endpointPattern).optional(),
          })
          .strict(),
        sharedKey: z.string().min(16, 'must be at least 16 characters when set').optional(),
        /**
         * The most live API keys (not revoked, not expired) one consumer may hold
         * (docs/access.md#keys-and-plans); administrators are not capped. Beyond it, making a
         * key is 409 `too_many_keys`.
         */
        maxKeys: z.number().int('must be a whole number').min(1).max(1_000_000),
        /**
         * The most `GET /api/v1/usage/stream` one consumer may hold open at once, across every
         * instance with Redis (each process alone without it); administrators are not capped.
         * Beyond it, opening one is 429 `too_many_streams`.
         */
        maxUsageStreams: z.number().int('must be a whole number').min(1).max(10_000),
      })
      .strict(),
    webhooks: z
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
      .strict(),
    scrapers: z
      .object({
        proxyPools: z.record(
          z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'pool names are letters, digits, _ and -'),
          z.array(z.string().regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// proxy URL')).min(1)
        ),
        /** Runs executed at once by this process. */
        concurrency: z.number().int().min(1).max(100),
        /**
         * Runs of one consumer's scrapers executing at once across every instance (they share the
         * database); the consumer's further runs wait as pending, so one consumer cannot take every slot.
         */
        runsPerConsumer: z.number().int().min(1).max(1_000),
        /**
         * Page requests one run keeps in flight. With `rate_limit` r and pages answering in t
         * seconds, a run reaches its rate only if this is at least r × t.
         */
        pageConcurrency: z.number().int().min(1).max(32),
        /** Whether this process executes runs and schedule ticks. */
        worker: z.boolean(),
      })
      .strict(),
    commerce: z
      .object({
        stripeSecretKey: z.string().min(1).optional(),
        stripeWebhookSecret: z.string().min(1).optional(),
        currency: z
          .string()
          .regex(/^[a-z]{3}$/, 'must be a lowercase ISO 4217 code such as eur')
          .refine(
            (code) => !UNSUPPORTED_CURRENCIES.includes(code),
            'amounts are sent in hundredths, so zero- and three-decimal currencies are not supported'
          ),
        /** Where Stripe sends the buyer back; {ORDER_ID} and Stripe's {CHECKOUT_SESSION_ID} are filled in. */
        successUrl: z.string().url(),
        cancelUrl: z.string().url(),
        /** How long a Checkout Session (and so the stock it holds) lives; Stripe allows 30 minutes to 24 hours. */
        sessionExpiresMinutes: z
          .number()
          .int()
          .min(30, 'CHECKOUT_HOLD_MINUTES: Stripe keeps a Checkout Session at least 30 minutes')
          .max(1440, 'CHECKOUT_HOLD_MINUTES: Stripe keeps a Checkout Session at most 24 hours'),
        /** Units of one product a consumer's unpaid checkouts may hold together, so nobody can reserve a whole shelf. */
        maxHeldUnits: z.number().int().min(1),
        /** Unpaid checkouts a consumer may have open at once. */
        maxOpenCheckouts: z.number().int().min(1),
        /** Where the Stripe SDK connects: Stripe's API unless set (tests point it at a local stub). */
        stripeApi: z
          .object({
            host: z.string().min(1).optional(),
            port: z.number().int().min(1).max(65535).optional(),
            protocol: z.enum(['http', 'https']).optional(),
            maxNetworkRetries: z.number().int().min(0).max(10),
            timeoutMs: z.number().int().min(1000).max(120_000),
          })
          .strict(),
      })
      .strict(),
    billing: z
      .object({
        /**
         * Where Checkout and the Stripe Billing Portal send the consumer back (BILLING_RETURN_URL);
         * unset: the consumer portal of this server (its public URL and `portal.path`).
         */
        returnUrl: z.string().url().optional(),
        /** Days a past-due subscription keeps its plan before its keys fall back to the default plan. */
        graceDays: z.number().min(0).max(90),
        /** The Stripe Billing Meter's `event_name` that overage is reported under. */
        meterEventName: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be 1 to 100 letters, digits, _ . : -'),
        /** Seconds between two overage reports of one customer (Stripe asks for at most one a minute or so). */
        reportIntervalSeconds: z.number().int().min(1).max(3600),
      })
      .strict(),
    search: z
      .object({
        /** Searchable collections by the name callers use in `collections`. */
        collections: z.record(
          z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'collection names are letters, digits, _ and -'),
          z
            .object({
              contentType: contentTypeRef,
              fields: z.array(attributeName).min(1).max(10),
              /** What "published" means for a type without draft-and-publish, as a query-engine filter. */
              where: z.record(z.string(), z.unknown()).optional(),
            })
            .strict()
        ),
        /** Searched when the request names no collection. */
        defaultCollections: z.array(z.string()),
      })
      .strict(),
    /** The consumer portal: a client-side app served at `path` (its assets under `<path>/assets/`). */
    portal: z
      .object({
        /** false: `path` answers 404 like any unknown page. */
        enabled: z.boolean(),
        path: z
          .string()
          .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path such as /portal: segments of letters, digits, . _ ~ - and no trailing slash')
          .refine((value) => !value.split('/').some((segment) => segment === '.' || segment === '..'), 'must not hold . or .. segments')
          .refine(
            (value) => !/^\/(api|admin|uploads)(\/|$)/.test(value),
            'must not be under /api, /admin or /uploads, which Strapi answers itself'
          ),
        /** The page title and the name in the portal's header. */
        title: z.string().trim().min(1).max(80),
        /** A CSS hex colour for buttons, links and the chart. */
        accentColor: z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #4945ff'),
      })
      .strict(),
    frontendOrigin: z.string().url(),
    observability: z
      .object({
        /** `METRICS_TOKEN`: the bearer token `GET /metrics` asks for; unset, the route answers 404. */
        metricsToken: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
        /** How long `GET /_ready` waits for the database and Redis before calling them down. */
        readyTimeoutMs: z.number().int().min(50).max(30_000),
        /** `LOG_FORMAT=json`: every log line one JSON object (else Strapi's own lines). */
        logFormat: z.enum(['pretty', 'json'], { message: 'LOG_FORMAT must be pretty or json' }),
      })
      .strict(),
    /**
     * How long records the site only keeps for a while are kept (docs/operations.md#data-kept-as-long-as-it-is-needed).
     * Days may be fractions (0.5 is twelve hours); 0 keeps forever.
     */
    retention: z
      .object({
        /** `RETENTION_DELIVERIES_DAYS`: webhook deliveries in a final state (succeeded, failed, cancelled) and their attempts. */
        deliveriesDays: retentionDays('RETENTION_DELIVERIES_DAYS'),
        /** `RETENTION_USAGE_DAYS`: raw usage records, once their counts are in the daily rollups. */
        usageDays: retentionDays('RETENTION_USAGE_DAYS'),
        /** `RETENTION_SCRAPER_RUNS`: per scraper, the completed runs whose results are kept (the runs themselves always stay). */
        scraperRuns: z
          .number({ message: 'RETENTION_SCRAPER_RUNS must be a whole number' })
          .int('RETENTION_SCRAPER_RUNS must be a whole number')
          .min(0, 'RETENTION_SCRAPER_RUNS must be 0 (keep every result) or more')
          .max(1_000_000, 'RETENTION_SCRAPER_RUNS must be at most 1,000,000'),
        /** `RETENTION_STRIPE_EVENTS_DAYS`: the ledger of Stripe events already applied (Stripe retries an event for 3 days). */
        stripeEventsDays: retentionDays('RETENTION_STRIPE_EVENTS_DAYS'),
        /** `RETENTION_PURGE_SECONDS`: time between two purges (and a purge at boot once that much has passed since the last). */
        purgeSeconds: z
          .number({ message: 'RETENTION_PURGE_SECONDS must be a number of seconds' })
          .finite('RETENTION_PURGE_SECONDS must be a number of seconds')
          .min(1, 'RETENTION_PURGE_SECONDS must be at least 1')
          .max(MAX_PURGE_SECONDS, `RETENTION_PURGE_SECONDS must be at most ${MAX_PURGE_SECONDS} (a year)`),
      })
      .strict(),
    content: z
      .object({
        /**
         * users-permissions roles (by type or name, case-insensitive) whose members may read drafts
         * and receive events about them, beside administrators and Strapi's API tokens
         * (`CONTENT_DRAFT_READERS`; docs/content-api.md#drafts): a preview frontend's role.
         */
        draftReaders: z.array(z.string().trim().min(1, 'role names must not be empty').max(100)),
      })
      .strict(),
    /** Where committed content changes are announced (`CONTENT_WEBHOOK_URL`); none: off. */
    contentWebhookUrl: z
      .string()
      .refine((value) => {
        try {
          return ['http:', 'https:'].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, 'CONTENT_WEBHOOK_URL must be an absolute http: or https: URL')
      .optional(),
  })
  .strict();

export type PluginConfig = z.infer<typeof configSchema>;

type Env = {
  (key: string, fallback?: string): string | undefined;
  bool(key: string, fallback?: boolean): boolean | undefined;
  int(key: string, fallback?: number): number | undefined;
};

export default {
  default: ({ env }: { env: Env }): PluginConfig => ({
    contentTypes: {
      article: 'api::article.article',
      product: 'api::product.product',
      page: 'api::page.page',
    },
    jobs: {
      redisUrl: env('REDIS_URL') || undefined,
      prefix: env('JOBS_PREFIX', 'api-suite') as string,
      shutdownTimeoutMs: 10_000,
    },
    outbound: {
      // Left unset when the variable is: the resolved config then says the default applies.
      allowPrivate: parseBoolean(env('OUTBOUND_ALLOW_PRIVATE'), undefined, 'OUTBOUND_ALLOW_PRIVATE'),
      connectTimeoutMs: 5_000,
      keepAliveTimeoutMs: 30_000,
      connectionsPerOrigin: 64,
    },
    access: {
      routePrefixes: parseList(env('ACCESS_ROUTE_PREFIXES')) ?? ['/api/v1', '/api/webhooks'],
      // Worked out from the site's own content types when a site names none (content-api/groups.ts).
      endpointGroups: {},
      sharedKey: env('API_SHARED_KEY') || undefined,
      maxKeys: parseCount(env('ACCESS_MAX_KEYS'), DEFAULT_MAX_KEYS, 'ACCESS_MAX_KEYS'),
      maxUsageStreams: parseCount(env('ACCESS_MAX_USAGE_STREAMS'), DEFAULT_MAX_USAGE_STREAMS, 'ACCESS_MAX_USAGE_STREAMS'),
    },
    webhooks: {
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
    },
    scrapers: {
      proxyPools: parseProxyPools(env('SCRAPER_PROXY_POOLS')),
      concurrency: env.int('SCRAPER_CONCURRENCY', 4) as number,
      runsPerConsumer: env.int('SCRAPER_RUNS_PER_CONSUMER', 2) as number,
      pageConcurrency: env.int('SCRAPER_PAGE_CONCURRENCY', 4) as number,
      worker: parseBoolean(env('SCRAPER_WORKER'), true, 'SCRAPER_WORKER'),
    },
    commerce: {
      stripeSecretKey: env('STRIPE_SECRET_KEY') || undefined,
      stripeWebhookSecret: env('STRIPE_WEBHOOK_SECRET') || undefined,
      currency: (env('STRIPE_CURRENCY') || 'eur').toLowerCase(),
      successUrl: `${frontendOriginOf(env)}/checkout/success?order_id={ORDER_ID}&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${frontendOriginOf(env)}/checkout/cancel?order_id={ORDER_ID}`,
      sessionExpiresMinutes: env.int('CHECKOUT_HOLD_MINUTES', 30) as number,
      maxHeldUnits: env.int('CHECKOUT_MAX_HELD', 10) as number,
      maxOpenCheckouts: env.int('CHECKOUT_MAX_OPEN', 3) as number,
      stripeApi: {
        host: env('STRIPE_API_HOST') || undefined,
        port: env('STRIPE_API_PORT') ? (env.int('STRIPE_API_PORT') as number) : undefined,
        protocol: (env('STRIPE_API_PROTOCOL') || undefined) as 'http' | 'https' | undefined,
        maxNetworkRetries: 2,
        timeoutMs: 30_000,
      },
    },
    billing: {
      returnUrl: env('BILLING_RETURN_URL')?.trim() || undefined,
      graceDays: Number(env('BILLING_GRACE_DAYS') || 7),
      meterEventName: env('BILLING_METER_EVENT') || 'api_requests',
      reportIntervalSeconds: env.int('BILLING_REPORT_INTERVAL_SECONDS', 60) as number,
    },
    // A site names what is searchable (docs/search-feed-cors.md#search); nothing is until it does.
    search: { collections: {}, defaultCollections: [] },
    portal: {
      enabled: parseBoolean(env('PORTAL_ENABLED'), true, 'PORTAL_ENABLED'),
      // `/portal/` is `/portal`; unset or blank, the default.
      path: (env('PORTAL_PATH')?.trim() || '/portal').replace(/(.)\/+$/, '$1'),
      title: env('PORTAL_TITLE') || 'API portal',
      accentColor: env('PORTAL_ACCENT_COLOR') || '#4945ff',
    },
    frontendOrigin: frontendOriginOf(env),
    retention: {
      deliveriesDays: parseDays(env('RETENTION_DELIVERIES_DAYS'), 30, 'RETENTION_DELIVERIES_DAYS'),
      usageDays: parseDays(env('RETENTION_USAGE_DAYS'), 90, 'RETENTION_USAGE_DAYS'),
      scraperRuns: parseCount(env('RETENTION_SCRAPER_RUNS'), 20, 'RETENTION_SCRAPER_RUNS'),
      stripeEventsDays: parseDays(env('RETENTION_STRIPE_EVENTS_DAYS'), 90, 'RETENTION_STRIPE_EVENTS_DAYS'),
      purgeSeconds: parseDays(env('RETENTION_PURGE_SECONDS'), 86_400, 'RETENTION_PURGE_SECONDS', 'seconds'),
    },
    content: {
      draftReaders: parseList(env('CONTENT_DRAFT_READERS')) ?? [],
    },
    contentWebhookUrl: env('CONTENT_WEBHOOK_URL')?.trim() || undefined,
    observability: {
      metricsToken: env('METRICS_TOKEN') || undefined,
      readyTimeoutMs: 1_000,
      logFormat: (env('LOG_FORMAT') || 'pretty').trim().toLowerCase() as 'pretty' | 'json',
    },
  }),
  validator(config: unknown): void {
    const result = configSchema.safeParse(config);
    if (result.success) return;
    const problems = result.error.issues.map((issue) => `  - ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`Invalid configuration for plugin api-suite (config/plugins.ts, key "api-suite"):\n${problems.join('\n')}`);
  },
};

/** FRONTEND_ORIGIN may list several origins for CORS; return URLs use the first. */
function frontendOriginOf(env: Env): string {
  return (parseList(env('FRONTEND_ORIGIN')) ?? ['http://localhost:3000'])[0].replace(/\/+$/, '');
}

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

/** SCRAPER_PROXY_POOLS: a JSON object of pool names to lists of proxy URLs. */
export function parseProxyPools(value: string | undefined): Record<string, string[]> {
  if (value === undefined || value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, string[]>;
  } catch {
    // reported below
  }
  throw new Error('SCRAPER_PROXY_POOLS must be a JSON object such as {"residential":["http://proxy-1:8080","http://proxy-2:8080"]}');
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

/**
 * ACCESS_MAX_KEYS: live API keys one consumer may hold. A consumer needs one key per app,
 * environment and teammate at most, and a reroll holds two for its grace period; 20 leaves room
 * for all of that, where hundreds (300 made in 3 s) serve nobody but someone filling the table.
 */
export const DEFAULT_MAX_KEYS = 20;
/** Failed deliveries in a row before an endpoint's owner is warned (docs/webhooks.md#endpoint-health). */
export const DEFAULT_FAILING_AFTER = 20;

/**
 * ACCESS_MAX_USAGE_STREAMS: usage streams one consumer may hold open. A portal tab holds one; a
 * few tabs and a dashboard fit in 5, and each stream costs a database report every few seconds.
 */
export const DEFAULT_MAX_USAGE_STREAMS = 5;

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

/** The cap of a consumer on `plan`: the plan's own (its name in any case), else the default. */
export function maxSubscriptionsOf(settings: PluginConfig['webhooks']['maxSubscriptions'], plan: string): number {
  const wanted = plan.trim().toLowerCase();
  const own = Object.entries(settings.plans).find(([name]) => name.trim().toLowerCase() === wanted);
  return own ? own[1] : settings.default;
}

/** A whole number of at least 0 from the environment, strictly ("5x" is refused, where `env.int` would read 5); unset or blank: `fallback`. */
export function parseCount(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d{1,9}$/.test(value.trim())) throw new Error(`${name} must be a whole number such as ${fallback}, not "${value}"`);
  return Number(value.trim());
}

/**
 * A number of days (or seconds) from the environment, fractions allowed ("0.5", "1e-3"), strictly:
 * "5d" or "1,5" is refused where `Number.parseFloat` would read 5 or 1; unset or blank: `fallback`.
 * The range is the validator's to check, so its message is the same from the variable and from
 * config/plugins.ts.
 */
export function parseDays(value: string | undefined, fallback: number, name: string, unit = 'days'): number {
  if (value === undefined || value.trim() === '') return fallback;
  const text = value.trim();
  if (!/^\d+(\.\d+)?(e[-+]?\d+)?$|^\.\d+$/i.test(text)) {
    const note = unit === 'days' ? ' (fractions allowed, 0 keeps forever)' : '';
    throw new Error(`${name} must be a number of ${unit} such as ${fallback}${note}, not "${value}"`);
  }
  return Number(text);
}

/** "a, b" → ["a", "b"]; unset or blank → undefined (the default applies). */
export function parseList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * Whether outbound requests may reach private and reserved addresses, from the resolved config,
 * and whether that is the default (neither OUTBOUND_ALLOW_PRIVATE nor config/plugins.ts set it):
 * on outside production, off in it.
 */
export function privateAddressesAllowed(
  outbound: Pick<PluginConfig['outbound'], 'allowPrivate'>,
  nodeEnv: string | undefined = process.env.NODE_ENV
): { allowed: boolean; byDefault: boolean } {
  if (outbound.allowPrivate === undefined) return { allowed: nodeEnv !== 'production', byDefault: true };
  return { allowed: outbound.allowPrivate, byDefault: false };
}

/** A boolean from the environment, strictly; unset or blank: `fallback`. */
export function parseBoolean(value: string | undefined, fallback: boolean, name: string): boolean;
export function parseBoolean(value: string | undefined, fallback: undefined, name: string): boolean | undefined;
export function parseBoolean(value: string | undefined, fallback: boolean | undefined, name: string): boolean | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return fallback;
  if (/^(true|1|yes|on)$/i.test(text)) return true;
  if (/^(false|0|no|off)$/i.test(text)) return false;
  throw new Error(`${name} must be true or false, not "${value}"`);
}
