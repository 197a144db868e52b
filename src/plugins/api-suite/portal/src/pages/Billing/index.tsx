import { useState } from 'react';
import { api, type BillingPlan, type BillingSubscription } from '../../api';
import { Badge, formatDate, formatMoney, formatNumber, LoadProblem, Loading, Notice } from '../../components/feedback';
import { Button } from '../../components/form';
import { useAction, useLoad } from '../../hooks/useLoad';

/** Plans with their prices, bought through Stripe Checkout; a plan changed in place; the Stripe portal for cards and invoices. */
export function Billing() {
  const plans = useLoad(() => api.billingPlans().then((answer) => answer.data), []);
  const subscription = useLoad(() => api.billingSubscription().then((answer) => answer.data), []);
  const [leaving, setLeaving] = useState<string | null>(null);
  const [changed, setChanged] = useState<string | null>(null);

  // Checkout and the Stripe portal are pages of Stripe's: the browser goes there and comes back to the portal.
  const go = (url: string, what: string) => {
    setLeaving(what);
    window.location.assign(url);
  };
  const buy = useAction(async (plan: BillingPlan) => go((await api.checkout(plan.id)).data.url, `Opening Checkout for ${plan.name}…`));
  const change = useAction(async (plan: BillingPlan) => {
    await api.changePlan(plan.id);
    setChanged(plan.price_monthly > 0 ? `You are now on ${plan.name}. Stripe prorates the difference on your next invoice.` : `Your subscription ends at the end of this period; then you are on ${plan.name}.`);
    subscription.reload();
  });
  const portal = useAction(async () => go((await api.billingPortal()).data.url, 'Opening the billing portal…'));

  if (plans.problem?.code === 'billing_not_configured' || subscription.problem?.code === 'billing_not_configured') {
    return (
      <>
        <h1>Plans and billing</h1>
        <Notice testId="billing-off">This site does not sell plans online yet. To change your plan, contact the site's owner.</Notice>
      </>
    );
  }
  const current = subscription.data;
  const live = current !== null && ['active', 'past_due', 'unpaid'].includes(current.status);
  const problem = buy.problem ?? change.problem ?? portal.problem;
  return (
    <>
      <div className="page-heading">
        <h1>Plans and billing</h1>
        {live && (
          <Button busy={portal.busy} onClick={() => void portal.run()}>
            Manage payment and invoices
          </Button>
        )}
      </div>
      {leaving && (
        <Notice testId="leaving">
          <span className="spinner" aria-hidden="true" /> {leaving}
        </Notice>
      )}
      {changed && <Notice tone="success">{changed}</Notice>}
      {problem && <Notice tone="error">{problem.message}</Notice>}
      <LoadProblem problem={plans.problem ?? subscription.problem} retry={() => (plans.reload(), subscription.reload())} />
      {current && <SubscriptionLine subscription={current} plans={plans.data ?? []} />}
      {plans.loading && !plans.data && <Loading />}
      {plans.data && (
        <ul className="plans" aria-label="Plans">
          {plans.data.map((plan) => {
            const mine = current?.plan_id === plan.id;
            return (
              <li key={plan.id} className={`plan${mine ? ' plan-current' : ''}`} data-testid="plan-offer">
                <h2>{plan.name}</h2>
                <p className="price">{plan.price_monthly > 0 ? <>{formatMoney(plan.price_monthly, plan.currency)} <span className="muted">a month</span></> : 'Free'}</p>
                <ul className="plan-facts">
                  <li>{plan.requests_per_month === -1 ? 'Unlimited requests a month' : `${formatNumber(plan.requests_per_month)} requests a month`}</li>
                  <li>{formatNumber(plan.requests_per_minute)} requests a minute</li>
                  <li>
                    {plan.overage_unit_amount === null
                      ? 'Requests over the monthly quota are refused'
                      : `Over the quota: ${formatMoney(plan.overage_unit_amount, plan.currency, 'minor')} per 1,000 requests`}
                  </li>
                </ul>
                {mine ? (
                  <Badge tone="good">Your plan</Badge>
                ) : live ? (
                  <Button busy={change.busy} disabled={leaving !== null} onClick={() => void change.run(plan)}>
                    {plan.price_monthly > 0 ? `Switch to ${plan.name}` : `Cancel and move to ${plan.name}`}
                  </Button>
                ) : plan.price_monthly > 0 ? (
                  <Button variant="primary" busy={buy.busy} disabled={leaving !== null} onClick={() => void buy.run(plan)}>
                    Buy {plan.name}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

function SubscriptionLine({ subscription, plans }: { subscription: BillingSubscription; plans: BillingPlan[] }) {
  if (subscription.status === 'none') return <p className="lead">You are on the free plan. Buy a plan for more requests; you pay monthly by card through Stripe.</p>;
  const plan = plans.find((candidate) => candidate.id === subscription.plan_id);
  return (
    <p className="lead" data-testid="subscription-line">
      Subscription: <Badge tone={subscription.status === 'active' ? 'good' : 'bad'}>{subscription.status.replace('_', ' ')}</Badge>
      {plan && ` on ${plan.name}`}
      {subscription.current_period_end && (subscription.cancel_at_period_end ? `, ends ${formatDate(subscription.current_period_end)}` : `, renews ${formatDate(subscription.current_period_end)}`)}
      {subscription.overage.requests_this_period > 0 && `. Over quota this period: ${formatNumber(subscription.overage.requests_this_period)} requests`}
    </p>
  );
}
