/**
 * The shares of a pool's monthly quota at which its consumer is told (docs/billing.md#quota-alerts),
 * and the arithmetic of reaching them. One rule for the server's alerts and the portal's banner;
 * pure, so the hot path's check costs a comparison or two.
 */
export const QUOTA_THRESHOLDS = [80, 100] as const;
export type QuotaThreshold = (typeof QUOTA_THRESHOLDS)[number];

/** The request count that reaches `percent` of `quota`: the first whole request at or past it (8 of 10, 800,001 of 1,000,001). */
export function thresholdCount(quota: number, percent: QuotaThreshold): number {
  return Math.ceil((quota * percent) / 100);
}

/**
 * The thresholds a month's count has reached, lowest first. None for an unlimited quota (-1) or a
 * quota of 0, which nothing can use up.
 */
export function reachedThresholds(used: number, quota: number): QuotaThreshold[] {
  if (quota <= 0) return [];
  return QUOTA_THRESHOLDS.filter((percent) => used >= thresholdCount(quota, percent));
}
