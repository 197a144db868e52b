import { useState } from 'react';
import { api, type BillingSubscription } from '../../api';
import { Badge, formatDate, formatNumber, LoadProblem, Loading, Notice } from '../../components/feedback';
import { Button } from '../../components/form';
import { useAction } from '../../../../shared/hooks';
import { PlanCard } from '../../plans/PlanCard';
import { useBillingSubscription, useMyPlan, usePlanCatalog, type OfferedPlan } from '../../plans/usePlans';
import { planName } from '../../../../shared/format';

/**
 * Plans with their prices and what each includes, bought through Stripe Checkout; a plan changed in
 * place; the Stripe portal for cards and invoices. Without Stripe the same plans, not for sale.
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

  // Checkout and the Stripe portal are pages of Stripe's: the browser goes there and comes back to the portal.
  const go = (url: string, what: string) => {
    setLeaving(what);
    window.location.assign(url);
  };
  const buy = useAction(async (plan: OfferedPlan) =>
    go((await api.checkout(plan.id)).data.url, `Opening Checkout for ${planName(plan.name)}…`)
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
      <LoadProblem problem={subscription.problem} retry={subscription.reload} />
      {current && <SubscriptionLine subscription={current} plans={plans} />}
      <ul className="plans" aria-label="Plans">
        {plans.map((plan) => {
          const mine = current?.plan_id === plan.id;
          return (
            <PlanCard key={plan.id} plan={plan} current={mine}>
              {mine ? (
                <Badge tone="good">Your plan</Badge>
              ) : live ? (
                <Button busy={change.busy} disabled={leaving !== null} onClick={() => void change.run(plan)}>
                  {plan.price_monthly > 0 ? `Switch to ${planName(plan.name)}` : `Cancel and move to ${planName(plan.name)}`}
                </Button>
              ) : plan.price_monthly > 0 ? (
                <Button variant="primary" busy={buy.busy} disabled={leaving !== null} onClick={() => void buy.run(plan)}>
                  Buy {planName(plan.name)}
                </Button>
              ) : null}
            </PlanCard>
          );
        })}
      </ul>
    </>
  );
}

function SubscriptionLine({ subscription, plans }: { subscription: BillingSubscription; plans: OfferedPlan[] }) {
  // `plan_id` is the consumer's plan now, whether bought, granted by the site or the default.
  const plan = plans.find((candidate) => candidate.id === subscription.plan_id);
  if (subscription.status === 'none') {
    return (
      <p className="lead" data-testid="subscription-line">
        You are on the {plan ? planName(plan.name) : 'default'} plan. Buy a plan for more requests or more of the API; you pay monthly by
        card through Stripe.
      </p>
    );
  }
  return (
    <p className="lead" data-testid="subscription-line">
      Subscription: <Badge tone={subscription.status === 'active' ? 'good' : 'bad'}>{subscription.status.replace('_', ' ')}</Badge>
      {plan && ` on ${planName(plan.name)}`}
      {subscription.current_period_end &&
        (subscription.cancel_at_period_end
          ? `, ends ${formatDate(subscription.current_period_end)}`
          : `, renews ${formatDate(subscription.current_period_end)}`)}
      {subscription.overage.requests_this_period > 0 &&
        `. Over quota this period: ${formatNumber(subscription.overage.requests_this_period)} requests`}
    </p>
  );
}
