import { api, type BillingPlan, type BillingSubscription, type Plan, type UsageReport } from '../api';
import { ApiProblem } from '../http';
import { useLoad, type Loaded } from '../../../shared/hooks';
import { siteSettings } from '../settings';
import { reaches, type Feature } from './reach';

/** A plan as offered: the billing price list's when the site sells plans, else the public list's (no currency, overage, yearly price or trial). */
export type OfferedPlan = Plan & Partial<Pick<BillingPlan, 'currency' | 'overage_unit_amount' | 'price_yearly' | 'trial_days'>>;

export interface PlanCatalog {
  plans: OfferedPlan[];
  /** Whether plans are bought here (Stripe configured); false when billing answers 503. */
  sold: boolean;
}

/**
 * The site's plans: from billing, or, while billing is not configured, from the public list (with
 * the shop's currency, which that list leaves out), so they are shown either way. A site without
 * Stripe says so in the page's settings, and billing is then not asked at all: its 503 is expected,
 * not an error for the browser's console.
 */
export function usePlanCatalog(): Loaded<PlanCatalog> {
  return useLoad(async () => {
    const unsold = async () => ({
      plans: (await api.plans()).data.map((plan): OfferedPlan => ({ ...plan, currency: siteSettings().currency })),
      sold: false,
    });
    if (!siteSettings().billing) return unsold();
    try {
      return { plans: (await api.billingPlans()).data, sold: true };
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.code !== 'billing_not_configured') throw error;
      return unsold();
    }
  }, []);
}

/**
 * The consumer's billing subscription, or null where the site sells no plans (not asked then: the
 * billing routes would answer 503 `billing_not_configured`, which is no error).
 */
export function useBillingSubscription(): Loaded<BillingSubscription | null> & { billingOff: boolean } {
  const billing = siteSettings().billing;
  const loaded = useLoad(async () => (billing ? (await api.billingSubscription()).data : null), [billing]);
  return { ...loaded, billingOff: !billing || loaded.problem?.code === 'billing_not_configured' };
}

/**
 * The consumer's plan as the server holds them to it (`GET /api/v1/usage`'s `plan`) and the pool
 * of this month (`month`), whether or not they have a key yet.
 */
export function useMyPlan(): Loaded<Pick<UsageReport, 'plan' | 'month'>> {
  return useLoad(() => api.usage().then(({ data }) => ({ plan: data.plan, month: data.month })), []);
}

/**
 * Whether the consumer's plan reaches a feature, read from their plan's endpoints by the server's
 * own matcher (reach.ts), before its pages ask for anything: a plan without it is shown the offer
 * at once, with no request refused 403 (an expected answer, not an error for the console).
 * Administrators are held to no plan and reach everything.
 */
export function usePlanReaches(feature: Feature): Loaded<boolean> {
  return useLoad(async () => {
    const [usage, plans] = await Promise.all([api.usage(), api.plans()]);
    const held = usage.data.plan;
    if (!held) return true;
    const plan = plans.data.find((candidate) => candidate.id === held.id);
    // A plan the public list does not show (a key's own, say): let the server judge.
    return plan ? reaches(plan, feature) : true;
  }, [feature]);
}
