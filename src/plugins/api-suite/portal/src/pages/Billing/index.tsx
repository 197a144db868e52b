import { useState } from 'react';
import { api, type BillingInterval, type BillingSubscription } from '../../api';
import { Badge, formatDate, formatNumber, LoadProblem, Loading, Notice } from '../../components/feedback';
import { Button } from '../../components/form';
import { useAction } from '../../../../shared/hooks';
import { PlanCard } from '../../plans/PlanCard';
import { bestYearlySaving, trialDaysLeft } from '../../plans/pricing';
import { useBillingSubscription, useMyPlan, usePlanCatalog, type OfferedPlan } from '../../plans/usePlans';
import { planName } from '../../../../shared/format';

/**
 * Plans with their prices and what each includes, bought monthly or yearly through Stripe Checkout
 * (a first purchase with the plan's free trial); a plan changed in place; the Stripe portal for
 * cards and invoices. Without Stripe the same plans, not for sale.
 */
export function Billing() {
  const catalog = usePlanCatalog();
  const sold = catalog.data?.sold ?? null;
  if (sold === false) return <PlansNotSold plans={catalog.data?.plans ?? []} />;
  return (
    <>
      {sold === null && (
        <>
          <h1>Plans and billing</h1>
          <LoadProblem problem={catalog.problem} retry={catalog.reload} />
          {catalog.loading && <Loading />}
        </>
      )}
      {sold && <PlansForSale plans={catalog.data?.plans ?? []} />}
    </>
  );
}

/** Billing is not configured (the billing routes answer 503): the plans as the public list has them, and who to ask. */
function PlansNotSold({ plans }: { plans: OfferedPlan[] }) {
  const mine = useMyPlan();
  const current = mine.data?.plan ?? null;
  return (
    <>
      <h1>Plans and billing</h1>
      <Notice testId="billing-off">
        Buying a plan is not offered on this site yet. To move to another plan, contact the site's owner.
      </Notice>
      {current && (
        <p className="lead" data-testid="subscription-line">
          You are on the {planName(current.name)} plan.
        </p>
      )}
      <ul className="plans" aria-label="Plans">
        {plans.map((plan) => (
          <PlanCard key={plan.id} plan={plan} current={current?.id === plan.id}>
            {current?.id === plan.id && <Badge tone="good">Your plan</Badge>}
          </PlanCard>
        ))}
      </ul>
    </>
  );
}

function PlansForSale({ plans }: { plans: OfferedPlan[] }) {
  const subscription = useBillingSubscription();
  const [leaving, setLeaving] = useState<string | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const [chosen, setChosen] = useState<BillingInterval>('month');

  // Checkout and the Stripe portal are pages of Stripe's: the browser goes there and comes back to the portal.
  const go = (url: string, what: string) => {
    setLeaving(what);
    window.location.assign(url);
  };
  const buy = useAction(async (plan: OfferedPlan, interval: BillingInterval) =>
    go((await api.checkout(plan.id, interval)).data.url, `Opening Checkout for ${planName(plan.name)}…`)
  );
  const change = useAction(async (plan: OfferedPlan) => {
    await api.changePlan(plan.id);
    setChanged(
      plan.price_monthly > 0
        ? `You are now on ${planName(plan.name)}. Stripe prorates the difference on your next invoice.`
        : `Your subscription ends at the end of this period; then you are on ${planName(plan.name)}.`
    );
    subscription.reload();
  });
  const portal = useAction(async () => go((await api.billingPortal()).data.url, 'Opening the billing portal…'));

  const current = subscription.data ?? null;
  const live = current !== null && ['trialing', 'active', 'past_due', 'unpaid'].includes(current.status);
  // A live subscription changes plan within its own interval; before one, the consumer picks it.
  const interval: BillingInterval = live ? (current.interval ?? 'month') : chosen;
  const saving = bestYearlySaving(plans);
  const offersYearly = plans.some((plan) => plan.price_monthly > 0 && (plan.price_yearly ?? null) !== null);
  // The trial is a first purchase's: a consumer who never subscribed (status none) gets it.
  const trial = current?.status === 'none';
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
      <LoadProblem problem={subscription.problem} retry={subscription.reload} />
      {current && <SubscriptionLine subscription={current} plans={plans} />}
      {!live && offersYearly && <IntervalSwitch value={chosen} saving={saving} onChange={setChosen} />}
      <ul className="plans" aria-label="Plans">
        {plans.map((plan) => {
          const mine = current?.plan_id === plan.id;
          const hasYearly = (plan.price_yearly ?? null) !== null;
          return (
            <PlanCard key={plan.id} plan={plan} current={mine} interval={interval} trial={trial}>
              {mine ? (
                <Badge tone="good">Your plan</Badge>
              ) : live ? (
                interval === 'year' && plan.price_monthly > 0 && !hasYearly ? null : (
                  <Button busy={change.busy} disabled={leaving !== null} onClick={() => void change.run(plan)}>
                    {plan.price_monthly > 0 ? `Switch to ${planName(plan.name)}` : `Cancel and move to ${planName(plan.name)}`}
                  </Button>
                )
              ) : plan.price_monthly > 0 ? (
                <Button
                  variant="primary"
                  busy={buy.busy}
                  disabled={leaving !== null}
                  onClick={() => void buy.run(plan, interval === 'year' && hasYearly ? 'year' : 'month')}
                >
                  {interval === 'year' && !hasYearly ? `Buy ${planName(plan.name)} monthly` : `Buy ${planName(plan.name)}`}
                </Button>
              ) : null}
            </PlanCard>
          );
        })}
      </ul>
    </>
  );
}

/** Monthly or yearly, as two radio buttons (one tab stop, arrow keys between them), with the best saving a year brings. */
function IntervalSwitch({
  value,
  saving,
  onChange,
}: {
  value: BillingInterval;
  saving: number | null;
  onChange: (interval: BillingInterval) => void;
}) {
  return (
    <fieldset className="interval-switch" data-testid="interval-switch">
      <legend>Billing</legend>
      {(['month', 'year'] as const).map((interval) => (
        <label key={interval} className={value === interval ? 'interval-chosen' : undefined}>
          <input type="radio" name="interval" value={interval} checked={value === interval} onChange={() => onChange(interval)} />
          {interval === 'month' ? 'Monthly' : 'Yearly'}
          {interval === 'year' && saving !== null && <span className="interval-saving"> (save up to {saving} %)</span>}
        </label>
      ))}
    </fieldset>
  );
}

function SubscriptionLine({ subscription, plans }: { subscription: BillingSubscription; plans: OfferedPlan[] }) {
  // `plan_id` is the consumer's plan now, whether bought, granted by the site or the default.
  const plan = plans.find((candidate) => candidate.id === subscription.plan_id);
  if (subscription.status === 'none') {
    return (
      <p className="lead" data-testid="subscription-line">
        You are on the {plan ? planName(plan.name) : 'default'} plan. Buy a plan for more requests or more of the API; you pay monthly or
        yearly by card through Stripe.
      </p>
    );
  }
  const good = subscription.status === 'active' || subscription.status === 'trialing';
  const daysLeft = trialDaysLeft(subscription.trial_end);
  return (
    <>
      <p className="lead" data-testid="subscription-line">
        Subscription:{' '}
        <Badge tone={good ? 'good' : 'bad'}>
          {subscription.status === 'trialing' ? 'free trial' : subscription.status.replace('_', ' ')}
        </Badge>
        {plan && ` on ${planName(plan.name)}`}
        {subscription.interval && `, paid ${subscription.interval === 'year' ? 'yearly' : 'monthly'}`}
        {subscription.current_period_end &&
          subscription.status !== 'trialing' &&
          (subscription.cancel_at_period_end
            ? `, ends ${formatDate(subscription.current_period_end)}`
            : `, renews ${formatDate(subscription.current_period_end)}`)}
        {subscription.overage.requests_this_period > 0 &&
          `. Over quota this period: ${formatNumber(subscription.overage.requests_this_period)} requests`}
      </p>
      {subscription.status === 'trialing' && subscription.trial_end && (
        <Notice testId="trial-left">
          {daysLeft === 1 ? '1 day' : `${daysLeft} days`} of your free trial left: it ends {formatDate(subscription.trial_end)}
          {subscription.cancel_at_period_end ? ', and so does your subscription.' : ', then your first payment is taken.'}
        </Notice>
      )}
    </>
  );
}
