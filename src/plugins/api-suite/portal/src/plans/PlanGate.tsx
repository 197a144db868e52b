import type { ReactNode } from 'react';
import { LoadProblem, Loading } from '../components/feedback';
import { NotInPlan } from './NotInPlan';
import type { Feature } from './reach';
import { usePlanReaches } from './usePlans';

/** A page of one feature: its heading, the lead under it, and the feature its routes belong to. */
export interface FeaturePage {
  feature: Feature;
  /** The page's heading, which also names the feature in the offer ("Scrapers are not included…"). */
  title: string;
  lead: string;
}

/**
 * A feature's page behind the consumer's plan: `children` when the plan reaches the feature; while
 * that is asked, the heading with the loader (or the problem, with a retry); when it does not, the
 * page's offer instead, with no request of the feature's made (a 403 would be an expected answer
 * logged as an error).
 */
export function PlanGate({ page, children }: { page: FeaturePage; children: ReactNode }) {
  const reach = usePlanReaches(page.feature);
  if (reach.data === false) return <PlanOffer page={page} />;
  if (reach.data === undefined) {
    return (
      <>
        <h1>{page.title}</h1>
        <LoadProblem problem={reach.problem} retry={reach.reload} />
        {reach.loading && <Loading />}
      </>
    );
  }
  return <>{children}</>;
}

/**
 * The page as a plan without the feature sees it: heading, lead, and the plans that include it. Also
 * what a page shows when the server refuses its list (`endpoint_not_in_plan`): the server is the judge.
 */
export function PlanOffer({ page }: { page: FeaturePage }) {
  return (
    <>
      <h1>{page.title}</h1>
      <p className="lead">{page.lead}</p>
      <NotInPlan feature={page.feature} what={page.title} />
    </>
  );
}
