import { useId } from 'react';
import { Link } from 'react-router-dom';
import { LoadProblem, Loading } from '../components/feedback';
import { planName } from '../../../shared/format';
import { PlanCard } from './PlanCard';
import { reaches, reachesRoute, type Feature, type Route } from './reach';
import { useMyPlan, usePlanCatalog } from './usePlans';

/**
 * In place of a page whose routes the consumer's plan does not reach (the server answered 403
 * `endpoint_not_in_plan`): says so, and offers the plans that do, with the way to Billing. Given a
 * `route` instead of a feature (an operation of the API reference), the same for that one route.
 */
export function NotInPlan({
  feature,
  route,
  what,
}: { what: string } & ({ feature: Feature; route?: never } | { route: Route; feature?: never })) {
  const mine = useMyPlan();
  const catalog = usePlanCatalog();
  const headingId = useId();
  const current = mine.data?.plan ? planName(mine.data.plan.name) : undefined;
  const offers = (catalog.data?.plans ?? []).filter((plan) => (route ? reachesRoute(plan, route) : reaches(plan, feature)));
  const verb = route ? 'is' : 'are';
  return (
    <section className="card" data-testid="not-in-plan" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {current ? `${what} ${verb} not included in the ${current} plan` : `${what} ${verb} not included in your plan`}
      </h2>
      <LoadProblem problem={catalog.problem} retry={catalog.reload} />
      {catalog.loading && !catalog.data && <Loading />}
      {catalog.data && offers.length === 0 && <p>No plan on this site includes {what.toLowerCase()}. Ask the site's owner.</p>}
      {catalog.data && offers.length > 0 && (
        <>
          <p>{offers.length === 1 ? `This plan includes ${route ? 'it' : 'them'}:` : `These plans include ${route ? 'it' : 'them'}:`}</p>
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
