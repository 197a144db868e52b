/** What the Plans and billing page says about prices: the yearly saving and a trial's days left. Pure, so tested on its own. */

/**
 * The share of twelve monthly payments a yearly price saves, as a whole percent, or null when
 * there is no yearly price or it saves nothing (a yearly price above twelve months is no offer).
 */
export function yearlySaving(priceMonthly: number, priceYearly: number | null | undefined): number | null {
  if (priceYearly === null || priceYearly === undefined || !(priceMonthly > 0) || !(priceYearly > 0)) return null;
  const percent = Math.round((1 - priceYearly / (12 * priceMonthly)) * 100);
  return percent > 0 ? percent : null;
}

/** The largest saving among the plans: what the month/year switch promises. */
export function bestYearlySaving(plans: ReadonlyArray<{ price_monthly: number; price_yearly?: number | null }>): number | null {
  const savings = plans.map((plan) => yearlySaving(plan.price_monthly, plan.price_yearly)).filter((value) => value !== null);
  return savings.length > 0 ? Math.max(...savings) : null;
}

/** Days left of a trial ending at `trialEnd`, a day begun counting as a whole one; 0 once it is over or without one. */
export function trialDaysLeft(trialEnd: string | null | undefined, now = Date.now()): number {
  if (!trialEnd) return 0;
  const end = Date.parse(trialEnd);
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - now) / 86_400_000));
}
