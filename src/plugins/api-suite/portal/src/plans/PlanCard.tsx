import type { ReactNode } from 'react';
import type { BillingInterval } from '../api';
import { formatMoney, formatNumber } from '../components/feedback';
import { planName } from '../../../shared/format';
import { yearlySaving } from './pricing';
import { includedFeatures } from './reach';
import type { OfferedPlan } from './usePlans';

/**
 * One plan as offered on Billing and beside a feature the consumer's plan lacks: price (a month,
 * or a year with its saving against twelve months), quotas, what it reaches, and the free trial a
 * first purchase starts with when `trial` says the consumer would get one.
 */
export function PlanCard({
  plan,
  current,
  interval = 'month',
  trial = false,
  children,
}: {
  plan: OfferedPlan;
  current?: boolean;
  interval?: BillingInterval;
  trial?: boolean;
  children?: ReactNode;
}) {
  const trialDays = trial && plan.price_monthly > 0 ? (plan.trial_days ?? 0) : 0;
  return (
    <li className={`plan${current ? ' plan-current' : ''}`} data-testid="plan-offer">
      <h2>{planName(plan.name)}</h2>
      <Price plan={plan} interval={interval} />
      <ul className="plan-facts">
        {trialDays > 0 && <li data-testid="plan-trial">{trialDays}-day free trial on your first purchase</li>}
        <li>{monthly(plan.requests_per_month)}</li>
        <li>{formatNumber(plan.requests_per_minute)} requests a minute</li>
        {plan.overage_unit_amount !== undefined && plan.currency !== undefined && (
          <li>
            {plan.overage_unit_amount === null
              ? 'Requests over the monthly quota are refused'
              : `Over the quota: ${formatMoney(plan.overage_unit_amount, plan.currency, 'minor')} per 1,000 requests, billed monthly`}
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

/** Always with its currency, as the admin panel writes it; a free plan is "€0.00 a month", its name already says free. */
function Price({ plan, interval }: { plan: OfferedPlan; interval: BillingInterval }) {
  const money = (amount: number) => (plan.currency ? formatMoney(amount, plan.currency) : amount.toFixed(2));
  const yearly = plan.price_yearly ?? null;
  if (interval === 'year' && yearly !== null) {
    const saving = yearlySaving(plan.price_monthly, yearly);
    return (
      <>
        <p className="price" data-testid="plan-price">
          {money(yearly)} <span className="muted">a year</span>
        </p>
        <p className="saving" data-testid="plan-saving">
          {saving !== null
            ? `Save ${saving} % against ${money(plan.price_monthly * 12)} paid monthly`
            : `${money(plan.price_monthly)} a month if paid monthly`}
        </p>
      </>
    );
  }
  return (
    <>
      <p className="price" data-testid="plan-price">
        {money(plan.price_monthly)} <span className="muted">a month</span>
      </p>
      {interval === 'year' && plan.price_monthly > 0 && (
        <p className="saving muted" data-testid="plan-saving">
          Sold monthly only
        </p>
      )}
    </>
  );
}
