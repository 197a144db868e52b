import config from '../../src/plugins/api-suite/server/src/config';
import { parseBoolean, parseCount } from '../../src/plugins/api-suite/server/src/config-env';
import { maxSubscriptionsOf, parsePlanCaps, parseSchedule } from '../../src/plugins/api-suite/server/src/features/webhooks/config';
import { privateAddressesAllowed } from '../../src/plugins/api-suite/server/src/outbound/config';
import { env as strapiEnv } from '@strapi/utils';
import siteConfig from '../../config/plugins';
import { privateAddressesNotice } from '../../src/plugins/api-suite/server/src/features/platform/private-addresses';
import { envFrom } from '../helpers/env';

describe('plugin config', () => {
  it('has valid defaults', () => {
    const defaults = config.default({ env: envFrom({}) });
    expect(() => config.validator(defaults)).not.toThrow();
    expect(defaults.webhooks.retryScheduleSeconds).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(defaults.jobs.redisUrl).toBeUndefined();
    expect(defaults.frontendOrigin).toBe('http://localhost:3000');
    expect(defaults.scrapers.pageConcurrency).toBe(4);
    expect(defaults.scrapers.runsPerConsumer).toBe(2);
    expect(defaults.webhooks.maxSubscriptions).toEqual({ default: 100, plans: { free: 10, pro: 100, enterprise: 1000 } });
    expect([defaults.access.maxKeys, defaults.access.maxUsageStreams]).toEqual([20, 5]);
  });

  it('reads WEBHOOK_FAILING_AFTER (20 by default) and refuses what would never warn before the disable at 100', () => {
    expect(config.default({ env: envFrom({}) }).webhooks.failingAfter).toBe(20);
    expect(config.default({ env: envFrom({ WEBHOOK_FAILING_AFTER: ' 5 ' }) }).webhooks.failingAfter).toBe(5);
    expect(() => config.default({ env: envFrom({ WEBHOOK_FAILING_AFTER: 'twenty' }) })).toThrow(
      'WEBHOOK_FAILING_AFTER must be a whole number such as 20, not "twenty"'
    );
    const defaults = config.default({ env: envFrom({}) });
    expect(() => config.validator({ ...defaults, webhooks: { ...defaults.webhooks, failingAfter: 100 } })).toThrow(
      /webhooks\.failingAfter: must be below 100, where a subscription is disabled/
    );
    expect(() => config.validator({ ...defaults, webhooks: { ...defaults.webhooks, failingAfter: 0 } })).not.toThrow();
  });

  it('reads ACCESS_MAX_KEYS and ACCESS_MAX_USAGE_STREAMS strictly, and refuses 0', () => {
    const access = config.default({ env: envFrom({ ACCESS_MAX_KEYS: '50', ACCESS_MAX_USAGE_STREAMS: ' 2 ' }) }).access;
    expect([access.maxKeys, access.maxUsageStreams]).toEqual([50, 2]);
    expect(() => config.default({ env: envFrom({ ACCESS_MAX_KEYS: '20 keys' }) })).toThrow(
      'ACCESS_MAX_KEYS must be a whole number such as 20, not "20 keys"'
    );
    expect(() => config.default({ env: envFrom({ ACCESS_MAX_USAGE_STREAMS: '-1' }) })).toThrow(
      'ACCESS_MAX_USAGE_STREAMS must be a whole number such as 5, not "-1"'
    );
    const defaults = config.default({ env: envFrom({}) });
    expect(() => config.validator({ ...defaults, access: { ...defaults.access, maxKeys: 0 } })).toThrow(/access\.maxKeys/);
    expect(() => config.validator({ ...defaults, access: { ...defaults.access, maxUsageStreams: 0 } })).toThrow(/access\.maxUsageStreams/);
  });

  it('reads the environment', () => {
    const defaults = config.default({
      env: envFrom({
        REDIS_URL: 'redis://127.0.0.1:6379',
        WEBHOOK_RETRY_SCHEDULE: '1,2,3',
        OUTBOUND_ALLOW_PRIVATE: 'false',
        FRONTEND_ORIGIN: 'https://shop.example',
      }),
    });
    expect(defaults.jobs.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(defaults.webhooks.retryScheduleSeconds).toEqual([1, 2, 3]);
    expect(defaults.outbound.allowPrivate).toBe(false);
    expect(defaults.frontendOrigin).toBe('https://shop.example');
    const scrapers = config.default({ env: envFrom({ SCRAPER_PAGE_CONCURRENCY: '12' }) }).scrapers;
    expect(scrapers.pageConcurrency).toBe(12);
    for (const pageConcurrency of [0, 33]) {
      expect(() => config.validator({ ...config.default({ env: envFrom({}) }), scrapers: { ...scrapers, pageConcurrency } })).toThrow(
        /scrapers\.pageConcurrency/
      );
    }
    expect(config.default({ env: envFrom({ SCRAPER_RUNS_PER_CONSUMER: '5' }) }).scrapers.runsPerConsumer).toBe(5);
    for (const runsPerConsumer of [0, 1.5]) {
      expect(() => config.validator({ ...config.default({ env: envFrom({}) }), scrapers: { ...scrapers, runsPerConsumer } })).toThrow(
        /scrapers\.runsPerConsumer/
      );
    }
  });

  it('refuses bad values at boot with a message naming each key', () => {
    const defaults = config.default({ env: envFrom({}) });
    const bad = {
      ...defaults,
      jobs: { ...defaults.jobs, redisUrl: 'http://not-redis' },
      webhooks: { ...defaults.webhooks, concurrency: 0 },
      access: { ...defaults.access, endpointGroups: { public: ['FETCH /x'], private: [] } },
      contentTypes: { ...defaults.contentTypes, article: 'article' },
    };
    expect(() => config.validator(bad)).toThrow(/jobs\.redisUrl: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => config.validator(bad)).toThrow(/webhooks\.concurrency/);
    expect(() => config.validator(bad)).toThrow(/access\.endpointGroups\.public\.0: must be "<METHOD or \*> <path, \* for the rest>"/);
    expect(() => config.validator(bad)).toThrow(/contentTypes\.article: must be a content-type UID/);
  });

  it('refuses unknown keys, which are usually typos', () => {
    const defaults = config.default({ env: envFrom({}) });
    expect(() => config.validator({ ...defaults, webhook: {} })).toThrow(/Unrecognized key/);
  });

  it('parses the retry schedule and booleans strictly', () => {
    expect(parseSchedule(undefined)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(parseSchedule('')).toEqual([]);
    expect(parseSchedule(' 5, 10 ')).toEqual([5, 10]);
    expect(() => parseSchedule('5,soon')).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(parseBoolean('TRUE', false, 'X')).toBe(true);
    expect(parseBoolean(undefined, true, 'X')).toBe(true);
    expect(() => parseBoolean('maybe', false, 'OUTBOUND_ALLOW_PRIVATE')).toThrow(/OUTBOUND_ALLOW_PRIVATE must be true or false/);
  });

  it('reads the subscription caps from WEBHOOK_MAX_SUBSCRIPTIONS and WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN', () => {
    const caps = config.default({
      env: envFrom({ WEBHOOK_MAX_SUBSCRIPTIONS: '5', WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN: 'Pro:3, Team EU : 40,free:0' }),
    }).webhooks.maxSubscriptions;
    expect(caps).toEqual({ default: 5, plans: { pro: 3, 'team eu': 40, free: 0 } });
    expect(() =>
      config.validator({
        ...config.default({ env: envFrom({}) }),
        webhooks: { ...config.default({ env: envFrom({}) }).webhooks, maxSubscriptions: caps },
      })
    ).not.toThrow();
    // Matched in any case; a plan not named gets the default.
    expect(maxSubscriptionsOf(caps, 'PRO')).toBe(3);
    expect(maxSubscriptionsOf(caps, 'team EU')).toBe(40);
    expect(maxSubscriptionsOf(caps, 'free')).toBe(0);
    expect(maxSubscriptionsOf(caps, 'enterprise')).toBe(5);
    // Set but empty: no plan has a cap of its own.
    expect(parsePlanCaps('')).toEqual({});
    expect(parsePlanCaps(undefined)).toEqual({ free: 10, pro: 100, enterprise: 1000 });
  });

  it.each([
    ['pro=25', /WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN must read like "pro:25,enterprise:250".*"pro=25" does not/],
    ['pro:25;enterprise:250', /"pro:25;enterprise:250" does not/],
    ['pro:many', /"pro:many" does not/],
    ['pro:-1', /"pro:-1" does not/],
    ['pro:2.5', /"pro:2.5" does not/],
    [':25', /":25" does not/],
    ['pro', /"pro" does not/],
    ['team:eu:40', /"team:eu:40" does not/],
    ['pro:25,PRO:30', /names the plan "PRO" twice/],
  ])('refuses WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN=%s at boot', (value, message) => {
    expect(() => parsePlanCaps(value)).toThrow(message);
    expect(() => config.default({ env: envFrom({ WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN: value }) })).toThrow(message);
  });

  it('reads WEBHOOK_MAX_SUBSCRIPTIONS strictly, and the validator bounds both caps', () => {
    expect(parseCount(undefined, 100, 'X')).toBe(100);
    expect(parseCount(' 7 ', 100, 'X')).toBe(7);
    for (const typo of ['5x', '-1', '1.5', 'ten']) {
      expect(() => config.default({ env: envFrom({ WEBHOOK_MAX_SUBSCRIPTIONS: typo }) })).toThrow(
        `WEBHOOK_MAX_SUBSCRIPTIONS must be a whole number such as 100, not "${typo}"`
      );
    }
    const defaults = config.default({ env: envFrom({}) });
    const withCaps = (maxSubscriptions: unknown) => ({ ...defaults, webhooks: { ...defaults.webhooks, maxSubscriptions } });
    expect(() => config.validator(withCaps({ default: -1, plans: {} }))).toThrow(/webhooks\.maxSubscriptions\.default/);
    expect(() => config.validator(withCaps({ default: 10, plans: { pro: 2.5 } }))).toThrow(
      /webhooks\.maxSubscriptions\.plans\.pro: must be a whole number/
    );
    expect(() => config.validator(withCaps({ default: 10, plans: { pro: 1, Pro: 2 } }))).toThrow(
      /webhooks\.maxSubscriptions\.plans: names a plan twice/
    );
    expect(() => config.validator(withCaps({ default: 10 }))).toThrow(/webhooks\.maxSubscriptions\.plans/);
  });
});

/** The api-suite entry's `config` in the site's config/plugins.ts (a plugin's entry may also be a bare boolean). */
function siteSettings(): { portal?: Record<string, unknown> } | undefined {
  const entry = siteConfig({ env: strapiEnv })['api-suite'];
  return typeof entry === 'object' ? (entry.config as { portal?: Record<string, unknown> } | undefined) : undefined;
}

/** Run `fn` with these variables in process.env (where Strapi's `env` helper reads them), restored after. */
function withEnv<T>(variables: Record<string, string | undefined>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  const assign = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  assign(variables);
  try {
    return fn();
  } finally {
    assign(saved);
  }
}

/**
 * The portal settings as Strapi resolves them at boot: the plugin's defaults (read from the
 * environment by the plugin) with this site's config/plugins.ts merged over them (lodash's
 * defaultsDeep, which for these flat values is a spread), then validated.
 */
function resolvedPortal(variables: Record<string, string | undefined>) {
  return withEnv({ JWT_SECRET: 'a-secret-for-this-test-only', ...variables }, () => {
    const defaults = config.default({ env: strapiEnv });
    const site = siteSettings();
    const resolved = { ...defaults, portal: { ...defaults.portal, ...site?.portal } };
    config.validator(resolved);
    return resolved.portal;
  });
}

describe("the portal's variables, read once by the plugin", () => {
  it.each([['1'], ['yes'], ['on'], ['TRUE'], [''], [undefined]])('PORTAL_ENABLED=%j keeps the portal on', (value) => {
    expect(resolvedPortal({ PORTAL_ENABLED: value }).enabled).toBe(true);
  });

  it.each([['0'], ['no'], ['off'], ['false']])('PORTAL_ENABLED=%j turns it off', (value) => {
    expect(resolvedPortal({ PORTAL_ENABLED: value }).enabled).toBe(false);
  });

  it('refuses a typo in PORTAL_ENABLED at boot instead of reading it as false', () => {
    expect(() => resolvedPortal({ PORTAL_ENABLED: 'ture' })).toThrow('PORTAL_ENABLED must be true or false, not "ture"');
  });

  it.each([
    ['/portal/', '/portal'],
    ['/developers//', '/developers'],
    [' /docs/api/ ', '/docs/api'],
    ['', '/portal'],
    ['  ', '/portal'],
    [undefined, '/portal'],
  ])('PORTAL_PATH=%j serves the portal at %s', (value, path) => {
    expect(resolvedPortal({ PORTAL_PATH: value }).path).toBe(path);
  });

  it("leaves the site's config/plugins.ts without a second reading of PORTAL_*", () => {
    const site = withEnv({ JWT_SECRET: 'a-secret-for-this-test-only', PORTAL_ENABLED: '1', PORTAL_PATH: '/portal/' }, siteSettings);
    expect(site?.portal).toBeUndefined();
  });
});

describe('private addresses, as the resolved config says', () => {
  /** The boot notice for these variables, `outbound` settings in config/plugins.ts (merged over the defaults) and NODE_ENV. */
  function noticeFor(variables: Record<string, string>, site: { allowPrivate?: boolean } = {}, nodeEnv = 'development') {
    const defaults = config.default({ env: envFrom(variables) });
    const outbound = { ...defaults.outbound, ...site };
    expect(() => config.validator({ ...defaults, outbound })).not.toThrow();
    const notice = privateAddressesNotice(outbound, nodeEnv);
    return notice && { level: notice.level, byDefault: notice.message.includes('(the default when NODE_ENV is not production)') };
  }

  it.each([
    ['unset', {}],
    ['empty', { OUTBOUND_ALLOW_PRIVATE: '' }],
    ['blank', { OUTBOUND_ALLOW_PRIVATE: '  ' }],
  ])('are allowed by default outside production when the variable is %s: said as information', (_how, variables) => {
    expect(noticeFor(variables)).toEqual({ level: 'info', byDefault: true });
    expect(noticeFor(variables, {}, 'production')).toBeUndefined();
  });

  it('are a warning when switched on by hand, by the variable or by config/plugins.ts, in any environment', () => {
    expect(noticeFor({ OUTBOUND_ALLOW_PRIVATE: 'true' })).toEqual({ level: 'warn', byDefault: false });
    expect(noticeFor({ OUTBOUND_ALLOW_PRIVATE: 'yes' }, {}, 'production')).toEqual({ level: 'warn', byDefault: false });
    expect(noticeFor({}, { allowPrivate: true })).toEqual({ level: 'warn', byDefault: false });
    expect(noticeFor({}, { allowPrivate: true }, 'production')).toEqual({ level: 'warn', byDefault: false });
  });

  it('say nothing when switched off, config/plugins.ts winning over the variable', () => {
    expect(noticeFor({ OUTBOUND_ALLOW_PRIVATE: 'false' })).toBeUndefined();
    expect(noticeFor({ OUTBOUND_ALLOW_PRIVATE: 'true' }, { allowPrivate: false })).toBeUndefined();
    expect(noticeFor({}, { allowPrivate: false })).toBeUndefined();
  });

  it('are what the outbound client is built with', () => {
    expect(privateAddressesAllowed({ allowPrivate: undefined }, 'development')).toEqual({ allowed: true, byDefault: true });
    expect(privateAddressesAllowed({ allowPrivate: undefined }, 'production')).toEqual({ allowed: false, byDefault: true });
    expect(privateAddressesAllowed({ allowPrivate: false }, 'development')).toEqual({ allowed: false, byDefault: false });
    expect(privateAddressesAllowed({ allowPrivate: true }, 'production')).toEqual({ allowed: true, byDefault: false });
  });
});
