import config from '../../src/plugins/api-suite/server/src/config';
import { parseDays } from '../../src/plugins/api-suite/server/src/config-env';
import { cutoffOf } from '../../src/plugins/api-suite/server/src/db/purge';
import { envFrom } from '../helpers/env';

describe('retention settings', () => {
  it('default to 30, 90, 20 runs and 90 days, purging once a day', () => {
    expect(config.default({ env: envFrom({}) }).retention).toEqual({
      deliveriesDays: 30,
      usageDays: 90,
      scraperRuns: 20,
      stripeEventsDays: 90,
      purgeSeconds: 86_400,
    });
  });

  it('read fractions of days and 0, and blank as unset', () => {
    const retention = config.default({
      env: envFrom({
        RETENTION_DELIVERIES_DAYS: '0.5',
        RETENTION_USAGE_DAYS: ' 0 ',
        RETENTION_SCRAPER_RUNS: '3',
        RETENTION_STRIPE_EVENTS_DAYS: '',
        RETENTION_PURGE_SECONDS: '2.5',
      }),
    }).retention;
    expect(retention).toEqual({ deliveriesDays: 0.5, usageDays: 0, scraperRuns: 3, stripeEventsDays: 90, purgeSeconds: 2.5 });
    expect(() => config.validator({ ...config.default({ env: envFrom({}) }), retention })).not.toThrow();
    expect(parseDays('.25', 1, 'X')).toBe(0.25);
    expect(parseDays('1e-3', 1, 'X')).toBe(0.001);
  });

  it('refuse what is not a plain number, naming the variable', () => {
    expect(() => config.default({ env: envFrom({ RETENTION_DELIVERIES_DAYS: '30d' }) })).toThrow(
      'RETENTION_DELIVERIES_DAYS must be a number of days such as 30 (fractions allowed, 0 keeps forever), not "30d"'
    );
    expect(() => config.default({ env: envFrom({ RETENTION_USAGE_DAYS: '-1' }) })).toThrow(
      'RETENTION_USAGE_DAYS must be a number of days such as 90 (fractions allowed, 0 keeps forever), not "-1"'
    );
    expect(() => config.default({ env: envFrom({ RETENTION_USAGE_DAYS: '1,5' }) })).toThrow(
      /RETENTION_USAGE_DAYS must be a number of days/
    );
    expect(() => config.default({ env: envFrom({ RETENTION_SCRAPER_RUNS: '2.5' }) })).toThrow(
      'RETENTION_SCRAPER_RUNS must be a whole number such as 20, not "2.5"'
    );
    expect(() => config.default({ env: envFrom({ RETENTION_PURGE_SECONDS: 'daily' }) })).toThrow(
      'RETENTION_PURGE_SECONDS must be a number of seconds such as 86400, not "daily"'
    );
  });

  it('are checked at boot whatever set them, with a message naming the setting', () => {
    const defaults = config.default({ env: envFrom({}) });
    const withRetention = (retention: Record<string, unknown>) => ({ ...defaults, retention: { ...defaults.retention, ...retention } });
    expect(() => config.validator(withRetention({ deliveriesDays: -0.5 }))).toThrow(
      /retention\.deliveriesDays: RETENTION_DELIVERIES_DAYS must be 0 \(keep forever\) or a positive number of days/
    );
    expect(() => config.validator(withRetention({ usageDays: 40_000 }))).toThrow(
      /retention\.usageDays: RETENTION_USAGE_DAYS must be at most 36500 days/
    );
    expect(() => config.validator(withRetention({ scraperRuns: 1.5 }))).toThrow(
      /retention\.scraperRuns: RETENTION_SCRAPER_RUNS must be a whole number/
    );
    expect(() => config.validator(withRetention({ purgeSeconds: 0 }))).toThrow(
      /retention\.purgeSeconds: RETENTION_PURGE_SECONDS must be at least 1/
    );
    expect(() => config.validator(withRetention({ stripeEventsDays: Number.NaN }))).toThrow(/retention\.stripeEventsDays/);
    expect(() => config.validator(withRetention({ unknown: 1 }))).toThrow(/retention: Unrecognized key/);
  });
});

describe('a limit in days', () => {
  it('counts back from the purge’s clock, and 0 keeps forever', () => {
    const now = new Date('2026-11-27T12:00:00.000Z');
    expect(cutoffOf(0.5, now)?.toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(cutoffOf(30, now)?.toISOString()).toBe('2026-10-28T12:00:00.000Z');
    expect(cutoffOf(0, now)).toBeNull();
  });
});
