import type { QuotaDecision, QuotaWindow } from './index';

/**
 * Response headers for a quota decision: the widely understood X-RateLimit-* set, plus the IETF
 * RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers, structured-field
 * form) so that generic clients can back off without knowing this API.
 */
export function rateLimitHeaders(decision: QuotaDecision, now: Date = new Date()): Record<string, string> {
  const { minute, month } = decision;
  const nowSeconds = now.getTime() / 1000;
  const monthLimited = month.limit !== -1;

  const policy = [`"minute";q=${minute.limit};w=${minute.windowSeconds}`];
  if (monthLimited) policy.push(`"month";q=${month.limit};w=${month.windowSeconds}`);

  // The current field reports the window that matters to the client right now: the month once it
  // is what stands in the way, since waiting for the minute to roll over would not help.
  const byMonth = decision.refusedBy === 'month';
  const current = byMonth ? month : minute;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(minute.limit),
    'X-RateLimit-Remaining': String(remainingOf(minute)),
    'X-RateLimit-Reset': String(minute.resetAt),
    'X-RateLimit-Monthly-Limit': monthLimited ? String(month.limit) : 'unlimited',
    'X-RateLimit-Monthly-Remaining': month.remaining === null ? 'unlimited' : String(remainingOf(month)),
    'RateLimit-Policy': policy.join(', '),
    RateLimit: `"${byMonth ? 'month' : 'minute'}";r=${remainingOf(current)};t=${secondsUntil(current.resetAt, nowSeconds)}`,
  };
  if (!decision.allowed) {
    const refusing = decision.refusedBy === 'month' ? month : minute;
    // Retry-After 0 would invite an immediate retry that lands in the same, still-full window.
    headers['Retry-After'] = String(Math.max(1, secondsUntil(refusing.resetAt, nowSeconds)));
  }
  return headers;
}

function remainingOf(window: QuotaWindow): number {
  return Math.max(0, window.remaining ?? 0);
}

function secondsUntil(resetAt: number, nowSeconds: number): number {
  return Math.max(0, Math.ceil(resetAt - nowSeconds));
}
