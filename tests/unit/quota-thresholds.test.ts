import { QUOTA_THRESHOLDS, reachedThresholds, thresholdCount } from '../../src/plugins/api-suite/shared/quota-thresholds';

/** The arithmetic the quota alerts and the portal's banner share (docs/billing.md#quota-alerts). */
describe('quota thresholds', () => {
  it('are 80 % and 100 %, reached by the first whole request at or past them', () => {
    expect(QUOTA_THRESHOLDS).toEqual([80, 100]);
    expect([thresholdCount(10, 80), thresholdCount(10, 100)]).toEqual([8, 10]);
    expect([thresholdCount(1_000_001, 80), thresholdCount(3, 80), thresholdCount(1, 80)]).toEqual([800_001, 3, 1]);
    // Large quotas stay exact, whole or not: 80 % of 5 × 2^40 is 4 × 2^40; of 2^40, 879,609,302,220.8.
    expect(thresholdCount(5 * 2 ** 40, 80)).toBe(4 * 2 ** 40);
    expect(thresholdCount(2 ** 40, 80)).toBe(879_609_302_221);
  });

  it('lists what a count has reached, lowest first', () => {
    expect([7, 8, 9, 10, 11].map((used) => reachedThresholds(used, 10))).toEqual([[], [80], [80], [80, 100], [80, 100]]);
    // A quota of 1: the first request reaches both.
    expect(reachedThresholds(1, 1)).toEqual([80, 100]);
  });

  it('never fires for an unlimited quota or one of 0', () => {
    expect(reachedThresholds(5_000_000, -1)).toEqual([]);
    expect(reachedThresholds(0, 0)).toEqual([]);
    expect(reachedThresholds(3, 0)).toEqual([]);
  });
});
