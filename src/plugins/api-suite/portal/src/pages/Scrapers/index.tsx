import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../../api';
import { Badge, EmptyState, formatDate, LoadProblem, Loading } from '../../components/feedback';
import { Button } from '../../components/form';
import { PagedList, usePaged } from '../../components/list';
import { NotInPlan } from '../../plans/NotInPlan';
import { usePlanReaches } from '../../plans/usePlans';
import { ScraperForm } from './ScraperForm';

const LEAD = "A scraper fetches a site's pages, by hand or on a schedule, and keeps what your selectors pick out.";

/** The consumer's scrapers, when their plan includes them; else what the plans that do offer. */
export function Scrapers() {
  const reach = usePlanReaches('scrapers');
  if (reach.data === false) return <NotOnPlan />;
  if (reach.data === undefined) {
    return (
      <>
        <h1>Scrapers</h1>
        <LoadProblem problem={reach.problem} retry={reach.reload} />
        {reach.loading && <Loading />}
      </>
    );
  }
  return <ScraperList />;
}

function NotOnPlan() {
  return (
    <>
      <h1>Scrapers</h1>
      <p className="lead">{LEAD}</p>
      <NotInPlan feature="scrapers" what="Scrapers" />
    </>
  );
}

/** The consumer's scrapers: a list to open each from, and a new one. */
function ScraperList() {
  const scrapers = usePaged(api.scrapers);
  const [creating, setCreating] = useState(false);
  // The server is the judge of what the plan reaches: its refusal of the list turns the page into an offer.
  if (scrapers.problem?.code === 'endpoint_not_in_plan') return <NotOnPlan />;
  return (
    <>
      <div className="page-heading">
        <h1>Scrapers</h1>
        {scrapers.data !== undefined && !creating && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New scraper
          </Button>
        )}
      </div>
      <p className="lead">{LEAD}</p>
      {creating && <ScraperForm onSaved={() => (setCreating(false), scrapers.reload())} onCancel={() => setCreating(false)} />}
      <PagedList
        list={scrapers}
        label="Scrapers"
        empty={
          !creating && (
            <EmptyState title="No scrapers yet" action={{ label: 'Create your first scraper', run: () => setCreating(true) }}>
              Give a start URL and, if you like, CSS selectors for the fields you want; then run it.
            </EmptyState>
          )
        }
        row={(scraper) => (
          <li key={scraper.id} className="row" data-testid="scraper-row">
            <div className="row-main">
              <Link to={`/scrapers/${scraper.id}`}>{scraper.name}</Link>{' '}
              <Badge tone={scraper.status === 'running' ? 'busy' : 'neutral'}>{scraper.status}</Badge>
              <div className="muted url">
                {scraper.url}
                {scraper.schedule && ` · schedule ${scraper.schedule}, next ${formatDate(scraper.next_run_at)}`}
              </div>
            </div>
          </li>
        )}
      />
    </>
  );
}
