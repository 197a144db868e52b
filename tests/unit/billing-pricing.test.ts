import { lookupKeyOf, planIdOfLookupKey } from '../../src/plugins/api-suite/server/src/features/billing/services/catalog';
import { isLive, statusOf } from '../../src/plugins/api-suite/server/src/features/billing/services/subscriptions';
import { trialDaysOf, yearlyPriceOf } from '../../src/plugins/api-suite/server/src/features/access/services/plans';
import { bestYearlySaving, trialDaysLeft, yearlySaving } from '../../src/plugins/api-suite/portal/src/plans/pricing';

/** The pure parts of trials and yearly prices: lookup keys, statuses, stored values read back, and what the portal says. */
describe('lookup keys', () => {
  it('names the three prices of a plan and reads the plan back from each', () => {
    expect(['flat', 'flat-yearly', 'metered'].map((kind) => lookupKeyOf(7, kind as 'flat'))).toEqual([
      'api-suite:7:flat',
      'api-suite:7:flat-yearly',
      'api-suite:7:metered',
    ]);
    for (const key of ['api-suite:7:flat', 'api-suite:7:flat-yearly', 'api-suite:7:metered']) expect(planIdOfLookupKey(key)).toBe(7);
    for (const key of ['api-suite:7:yearly', 'api-suite:x:flat', 'other:7:flat', 'api-suite:7:flat-yearly:x', null, undefined])
      expect(planIdOfLookupKey(key)).toBeNull();
  });
});

describe('statuses', () => {
  it('keeps trialing as its own status, live and holding the plan like active', () => {
    expect(statusOf('trialing')).toBe('trialing');
    expect(statusOf('active')).toBe('active');
    expect(statusOf('incomplete')).toBe('unpaid');
    expect(['trialing', 'active', 'past_due', 'unpaid'].every(isLive)).toBe(true);
    expect(['none', 'canceled', null].some(isLive)).toBe(false);
  });
});

describe('stored plan values', () => {
  it('reads a yearly price of 0 or none as sold monthly only, and trial days within 0 to 90', () => {
    expect([null, undefined, 0, '0', '0.00', 'x'].map((value) => yearlyPriceOf({ price_yearly: value as null }))).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(yearlyPriceOf({ price_yearly: '490.50' })).toBe(490.5);
    expect([null, undefined, 0, 14, 120, -3].map((value) => trialDaysOf({ trial_days: value as number }))).toEqual([0, 0, 0, 14, 90, 0]);
  });
});

describe('what the portal says', () => {
  it('counts the saving of a year against twelve months, in whole percent, and none when there is none', () => {
    expect(yearlySaving(49, 490)).toBe(17);
    expect(yearlySaving(10, 100)).toBe(17);
    expect(yearlySaving(10, 60)).toBe(50);
    expect(yearlySaving(10, 120)).toBeNull();
    expect(yearlySaving(10, 130)).toBeNull();
    expect(yearlySaving(10, 119.9)).toBeNull();
    expect(yearlySaving(10, null)).toBeNull();
    expect(yearlySaving(0, 100)).toBeNull();
    expect(
      bestYearlySaving([{ price_monthly: 49, price_yearly: 490 }, { price_monthly: 10, price_yearly: 60 }, { price_monthly: 5 }])
    ).toBe(50);
    expect(bestYearlySaving([{ price_monthly: 5, price_yearly: null }])).toBeNull();
  });

  it("counts a trial's days left, a day begun as a whole one", () => {
    const now = Date.UTC(2026, 10, 27, 12);
    expect(trialDaysLeft(new Date(now + 14 * 86_400_000).toISOString(), now)).toBe(14);
    expect(trialDaysLeft(new Date(now + 13 * 86_400_000 + 1).toISOString(), now)).toBe(14);
    expect(trialDaysLeft(new Date(now + 3_600_000).toISOString(), now)).toBe(1);
    expect(trialDaysLeft(new Date(now - 1).toISOString(), now)).toBe(0);
    expect(trialDaysLeft(null, now)).toBe(0);
  });
});
