import type { ReactNode } from 'react';
import { formatMoney, formatNumber } from '../components/feedback';
import { planName } from '../../../shared/format';
import { includedFeatures } from './reach';
import type { OfferedPlan } from './usePlans';

/** One plan as offered on Billing and beside a feature the consumer's plan lacks: price, quotas, what it reaches. */
export function PlanCard({ plan, current, children }: { plan: OfferedPlan; current?: boolean; children?: ReactNode }) {
  return (
    <li className={`plan${current ? ' plan-current' : ''}`} data-testid="plan-offer">
      <h2>{planName(plan.name)}</h2>
      <p className="price">{priceOf(plan)}</p>
      <ul className="plan-facts">
        <li>{monthly(plan.requests_per_month)}</li>
        <li>{formatNumber(plan.requests_per_minute)} requests a minute</li>
        {plan.overage_unit_amount !== undefined && plan.currency !== undefined && (
          <li>
            {plan.overage_unit_amount === null
              ? 'Requests over the monthly quota are refused'
              : `Over the quota: ${formatMoney(plan.overage_unit_amount, plan.currency, 'minor')} per 1,000 requests`}
          </li>
        )}
        <li data-testid="plan-includes">Includes: {includedFeatures(plan).join(', ') || 'no API routes'}</li>
      </ul>
      {children}
    </li>
  );
}

export function monthly(requestsPerMonth: number): string {
  return requestsPerMonth === -1 ? 'Unlimited requests a month' : `${formatNumber(requestsPerMonth)} requests a month`;
}

function priceOf(plan: OfferedPlan): ReactNode {
  // Always with its currency, as the admin panel writes it; a free plan is "€0.00 a month", its name already says free.
  const amount = plan.currency ? formatMoney(plan.price_monthly, plan.currency) : plan.price_monthly.toFixed(2);
  return (
    <>
      {amount} <span className="muted">a month</span>
    </>
  );
}
