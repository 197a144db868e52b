import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../../api';
import { Badge, EmptyState, formatDate } from '../../components/feedback';
import { Button } from '../../components/form';
import { PagedList, usePaged } from '../../components/list';
import { PlanGate, PlanOffer, type FeaturePage } from '../../plans/PlanGate';
import { ScraperForm } from './ScraperForm';

const PAGE: FeaturePage = {
  feature: 'scrapers',
  title: 'Scrapers',
  lead: "A scraper fetches a site's pages, by hand or on a schedule, and keeps what your selectors pick out.",
};

/** The consumer's scrapers, when their plan includes them; else what the plans that do offer. */
export function Scrapers() {
  return (
    <PlanGate page={PAGE}>
      <ScraperList />
    </PlanGate>
  );
}

/** The consumer's scrapers: a list to open each from, and a new one. */
function ScraperList() {
  const scrapers = usePaged(api.scrapers);
  const [creating, setCreating] = useState(false);
  // The server is the judge of what the plan reaches: its refusal of the list turns the page into an offer.
  if (scrapers.problem?.code === 'endpoint_not_in_plan') return <PlanOffer page={PAGE} />;
  return (
    <>
      <div className="page-heading">
        <h1>{PAGE.title}</h1>
        {scrapers.data !== undefined && !creating && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New scraper
          </Button>
        )}
      </div>
      <p className="lead">{PAGE.lead}</p>
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
