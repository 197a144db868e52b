import { Link } from 'react-router-dom';
import type { UsageReport } from '../../api';
import { formatMoney, formatNumber, LoadProblem, Notice } from '../../components/feedback';
import { planName } from '../../../../shared/format';
import { reachedThresholds } from '../../../../shared/quota-thresholds';
import { monthly } from '../../plans/PlanCard';
import { usePlanCatalog, type OfferedPlan } from '../../plans/usePlans';

/**
 * From 80 % of the month's quota (the threshold the server e-mails at, docs/billing.md#quota-alerts):
 * how much of it is used, the plans above the consumer's, and the way to change plan. Shown from
 * the live usage stream, so it appears as the requests come in.
 */
export function QuotaBanner({ month, held }: { month: UsageReport['month']; held: UsageReport['plan'] }) {
  const reached = reachedThresholds(month.used, month.quota);
  if (!held || reached.length === 0) return null;
  return <QuotaOffer month={month} held={held} />;
}

function QuotaOffer({ month, held }: { month: UsageReport['month']; held: NonNullable<UsageReport['plan']> }) {
  const catalog = usePlanCatalog();
  const { used, quota } = month;
  const plans = catalog.data?.plans ?? [];
  const price = plans.find((plan) => plan.id === held.id)?.price_monthly ?? 0;
  const above = plans.filter((plan) => isAbove(plan, held.id, price, quota)).sort(byQuota);
  const spent = used >= quota;
  return (
    <Notice tone={spent ? 'error' : 'warning'} testId="quota-banner">
      <p>
        <strong>
          {spent
            ? `You have used your monthly quota: ${formatNumber(used)} of ${formatNumber(quota)} requests.`
            : `You have used ${Math.floor((used / quota) * 100)} % of your monthly quota: ${formatNumber(used)} of ${formatNumber(quota)} requests.`}
        </strong>{' '}
        {held.own_limits ? 'These are the limits of one of your keys; they renew' : 'It renews'} on the 1st of next month (UTC).
      </p>
      <LoadProblem problem={catalog.problem} retry={catalog.reload} />
      {catalog.data && above.length === 0 && <p>No plan on this site has a larger quota: ask the site's owner.</p>}
      {above.length > 0 && (
        <>
          <p>{above.length === 1 ? 'This plan has a larger quota:' : 'These plans have a larger quota:'}</p>
          <ul className="quota-offers" aria-label="Plans with a larger quota">
            {above.map((plan) => (
              <li key={plan.id} data-testid="quota-offer">
                <strong>{planName(plan.name)}</strong>: {monthly(plan.requests_per_month).toLowerCase()}
                {priceOf(plan)}
              </li>
            ))}
          </ul>
          <p>
            <Link className="button button-primary" to="/billing">
              Change plan
            </Link>
          </p>
        </>
      )}
    </Notice>
  );
}

/**
 * A step up: another plan with a larger monthly quota than the pool's (unlimited is larger than
 * any) that costs no less than the consumer's own (a plan the list does not show counts as free).
 * A cheaper plan with more requests, such as a free tier beside a small paid one, is no upgrade.
 */
function isAbove(plan: OfferedPlan, heldId: number, heldPrice: number, quota: number): boolean {
  if (plan.id === heldId || plan.price_monthly < heldPrice) return false;
  return plan.requests_per_month === -1 || plan.requests_per_month > quota;
}

/** Smallest step up first; unlimited last. */
function byQuota(a: OfferedPlan, b: OfferedPlan): number {
  const size = (plan: OfferedPlan) => (plan.requests_per_month === -1 ? Infinity : plan.requests_per_month);
  return size(a) - size(b) || a.price_monthly - b.price_monthly;
}

function priceOf(plan: OfferedPlan): string {
  if (!plan.currency) return '';
  return `, ${formatMoney(plan.price_monthly, plan.currency)} a month`;
}
