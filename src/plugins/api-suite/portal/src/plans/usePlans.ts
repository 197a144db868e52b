import { api, type BillingPlan, type Plan, type UsageReport } from '../api';
import { ApiProblem } from '../http';
import { useLoad, type Loaded } from '../../../shared/hooks';

/** A plan as offered: the billing price list's when the site sells plans, else the public list's (no currency or overage). */
export type OfferedPlan = Plan & Partial<Pick<BillingPlan, 'currency' | 'overage_unit_amount'>>;

export interface PlanCatalog {
  plans: OfferedPlan[];
  /** Whether plans are bought here (Stripe configured); false when billing answers 503. */
  sold: boolean;
}

/** The site's plans: from billing, or, while billing is not configured, from the public list, so they are shown either way. */
export function usePlanCatalog(): Loaded<PlanCatalog> {
  return useLoad(async () => {
    try {
      return { plans: (await api.billingPlans()).data, sold: true };
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.code !== 'billing_not_configured') throw error;
      return { plans: (await api.plans()).data, sold: false };
    }
  }, []);
}

/**
 * The consumer's plan as the server holds them to it (`GET /api/v1/usage`'s `plan`) and the pool
 * of this month (`month`), whether or not they have a key yet.
 */
export function useMyPlan(): Loaded<Pick<UsageReport, 'plan' | 'month'>> {
  return useLoad(() => api.usage().then(({ data }) => ({ plan: data.plan, month: data.month })), []);
}
