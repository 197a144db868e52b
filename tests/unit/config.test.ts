import config, { parseBoolean, parseSchedule } from '../../src/plugins/api-suite/server/src/config';
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
});
