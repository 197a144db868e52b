import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api, type BillingSubscription, type Plan, type UsageReport } from '../../api';
import { Badge, formatDate, formatNumber, Loading, Notice } from '../../components/feedback';
import { useLoad } from '../../../../shared/hooks';
import { planName } from '../../../../shared/format';
import { useBillingSubscription } from '../../plans/usePlans';
import { monthly } from '../../plans/PlanCard';
import { includedFeatures } from '../../plans/reach';
import { QuotaBanner } from './QuotaBanner';
import { UsageChart } from './UsageChart';
import { useUsageStream } from './useUsageStream';

/** The consumer's plan and its status, this month's use of their pool against its quota, and the last hour live. */
export function Overview() {
  const [search] = useSearchParams();
  const returnedFromCheckout = search.get('checkout');
  const stream = useUsageStream();
  const plans = useLoad(() => api.plans(), []);
  const keys = useLoad(() => api.keys(1), []);
  const billing = useBillingSubscription();

  // Back from Checkout: Stripe tells the server by webhook, which may land a moment after the browser does.
  const awaitingPayment = returnedFromCheckout === 'success' && billing.data?.status !== 'active' && billing.data?.status !== 'trialing';
  const { reload } = billing;
  useEffect(() => {
    if (!awaitingPayment) return undefined;
    const timer = setInterval(reload, 2_000);
    return () => clearInterval(timer);
  }, [awaitingPayment, reload]);

  const { billingOff } = billing;
  // The stream carries the plan the server holds the consumer to and the pool's month, so both follow a purchase or a grant live.
  const usage = stream.value;
  const plan = usage?.plan ? (plans.data?.data.find((candidate) => candidate.id === usage.plan?.id) ?? null) : null;

  return (
    <>
      <h1>Overview</h1>
      {returnedFromCheckout === 'success' && (
        <Notice tone={awaitingPayment ? 'info' : 'success'} testId="checkout-notice">
          {awaitingPayment ? 'Payment received. Waiting for Stripe to confirm it…' : 'Thank you: your new plan is active.'}
        </Notice>
      )}
      {returnedFromCheckout === 'cancelled' && <Notice>Checkout was cancelled; nothing was charged.</Notice>}
      <StatusBanner subscription={billing.data ?? null} />
      {usage && <QuotaBanner month={usage.month} held={usage.plan} />}

      <section className="cards">
        <div className="card" data-testid="plan-card">
          <h2>Plan</h2>
          {!usage || (plans.loading && !plans.data) ? (
            stream.problem ? (
              <p>{stream.problem.message}</p>
            ) : (
              <Loading />
            )
          ) : (
            <PlanSummary held={usage.plan} plan={plan} month={usage.month} subscription={billing.data ?? null} billingOff={billingOff} />
          )}
        </div>
        <div className="card" data-testid="quota-card">
          <h2>This month</h2>
          {usage ? (
            <MonthUsage month={usage.month} lastHour={usage.total} />
          ) : stream.problem ? (
            <p>{stream.problem.message}</p>
          ) : (
            <Loading />
          )}
        </div>
      </section>

      <section className="card">
        <div className="card-heading">
          <h2>Last hour</h2>
          <span data-testid="usage-live">{stream.live ? <Badge tone="good">Live</Badge> : <Badge tone="neutral">Connecting…</Badge>}</span>
        </div>
        {keys.data && keys.data.meta.total === 0 && (
          <p>
            No key yet: <Link to="/keys">create an API key</Link> and send it in the <code>X-API-Key</code> header.
          </p>
        )}
        {stream.value ? (
          <UsageChart usage={stream.value} />
        ) : stream.problem ? (
          <Notice tone="error">{stream.problem.message}</Notice>
        ) : (
          <Loading />
        )}
      </section>
    </>
  );
}

function StatusBanner({ subscription }: { subscription: BillingSubscription | null }) {
  if (!subscription) return null;
  if (subscription.status === 'past_due' || subscription.status === 'unpaid') {
    return (
      <Notice tone="warning" testId="past-due-banner">
        Your last payment failed.{' '}
        {subscription.grace_until
          ? `Your plan stays until ${formatDate(subscription.grace_until)}; then your keys fall back to the free plan. `
          : ''}
        <Link to="/billing">Update your payment method</Link>.
      </Notice>
    );
  }
  if (subscription.cancel_at_period_end) {
    return <Notice>Your subscription ends on {formatDate(subscription.current_period_end)}; then your keys move to the free plan.</Notice>;
  }
  return null;
}

/**
 * The plan the server holds the consumer to, with what it includes. Its monthly figure is the
 * pool's quota (the same number as "This month" beside it), never a second reading of the plan.
 */
function PlanSummary({
  held,
  plan,
  month,
  subscription,
  billingOff,
}: {
  held: UsageReport['plan'];
  plan: Plan | null;
  month: UsageReport['month'];
  subscription: BillingSubscription | null;
  billingOff: boolean;
}) {
  if (!held) return <p>Administrators are held to no plan: every route, no quota.</p>;
  const sold = subscription && subscription.status !== 'none';
  return (
    <>
      <p className="big" data-testid="plan-name">
        {planName(held.name)}
      </p>
      <p data-testid="plan-limits">
        {monthly(month.quota)}
        {plan && `, ${formatNumber(plan.requests_per_minute)} a minute`}.
      </p>
      {plan && <p data-testid="plan-includes">Includes: {includedFeatures(plan).join(', ') || 'no API routes'}.</p>}
      {sold && (
        <p>
          Status:{' '}
          <Badge tone={subscription.status === 'active' || subscription.status === 'trialing' ? 'good' : 'bad'}>
            {subscription.status === 'trialing' ? 'free trial' : subscription.status.replace('_', ' ')}
          </Badge>
          {subscription.status === 'trialing' && subscription.trial_end
            ? ` · trial ends ${formatDate(subscription.trial_end)}`
            : subscription.current_period_end && ` · renews ${formatDate(subscription.current_period_end)}`}
        </p>
      )}
      <p>
        <Link to="/billing">{billingOff ? 'See the plans' : 'Change plan'}</Link>
      </p>
    </>
  );
}

function MonthUsage({ month, lastHour }: { month: UsageReport['month']; lastHour: number }) {
  const { used, quota, remaining } = month;
  // Each plan has a pool of its own: after a plan change the month's count starts again, while the last hour counts every request.
  const restarted = used < lastHour && (
    <p className="muted" data-testid="pool-restarted">
      Counted since you moved to this plan: a plan change starts a new count for the month, so this is fewer than the requests of the last
      hour.
    </p>
  );
  if (quota === -1) {
    return (
      <>
        <p className="big" data-testid="month-usage">
          {formatNumber(used)} <span className="muted">requests, no monthly limit</span>
        </p>
        {restarted}
      </>
    );
  }
  const share = quota === 0 ? 0 : Math.min(1, used / quota);
  return (
    <>
      <p className="big" data-testid="month-usage">
        {formatNumber(used)} <span className="muted">of {formatNumber(quota)} requests</span>
      </p>
      <progress
        className={share >= 0.9 ? 'meter meter-high' : 'meter'}
        max={Math.max(quota, 1)}
        value={Math.min(used, quota)}
        aria-label="Monthly quota used"
      >
        {Math.round(share * 100)}%
      </progress>
      <p className="muted">
        {remaining === null ? '' : `${formatNumber(remaining)} left this month (UTC). Your keys and this portal share it.`}
      </p>
      {restarted}
    </>
  );
}
