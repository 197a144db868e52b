import { Link } from 'react-router-dom';
import { LoadProblem, Loading } from '../components/feedback';
import { PlanCard } from './PlanCard';
import { reaches, type Feature } from './reach';
import { useMyPlan, usePlanCatalog } from './usePlans';

/**
 * In place of a page whose routes the consumer's plan does not reach (the server answered 403
 * `endpoint_not_in_plan`): says so, and offers the plans that do, with the way to Billing.
 */
export function NotInPlan({ feature, what }: { feature: Feature; what: string }) {
  const mine = useMyPlan();
  const catalog = usePlanCatalog();
  const planName = mine.data?.plan?.name;
  const offers = (catalog.data?.plans ?? []).filter((plan) => reaches(plan, feature));
  return (
    <section className="card" data-testid="not-in-plan" aria-labelledby="not-in-plan-heading">
      <h2 id="not-in-plan-heading">
        {planName ? `${what} are not included in the ${planName} plan` : `${what} are not included in your plan`}
      </h2>
      <LoadProblem problem={catalog.problem} retry={catalog.reload} />
      {catalog.loading && !catalog.data && <Loading />}
      {catalog.data && offers.length === 0 && <p>No plan on this site includes {what.toLowerCase()}. Ask the site's owner.</p>}
      {catalog.data && offers.length > 0 && (
        <>
          <p>{offers.length === 1 ? 'This plan includes them:' : 'These plans include them:'}</p>
          <ul className="plans" aria-label={`Plans with ${what.toLowerCase()}`}>
            {offers.map((plan) => (
              <PlanCard key={plan.id} plan={plan} />
            ))}
          </ul>
          <p className="not-in-plan-next">
            {catalog.data.sold ? (
              <Link className="button button-primary" to="/billing">
                Choose a plan in Plans and billing
              </Link>
            ) : (
              <>
                Plans are not sold on this site yet: ask the site's owner to move you to one. <Link to="/billing">See all plans</Link>.
              </>
            )}
          </p>
        </>
      )}
    </section>
  );
}
