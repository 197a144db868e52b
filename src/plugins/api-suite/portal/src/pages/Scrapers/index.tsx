import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../../api';
import { Badge, EmptyState, formatDate, LoadProblem, Loading, Pager } from '../../components/feedback';
import { Button } from '../../components/form';
import { useLoad } from '../../../../shared/hooks';
import { NotInPlan } from '../../plans/NotInPlan';
import { ScraperForm } from './ScraperForm';

/** The consumer's scrapers: a list to open each from, and a new one. */
export function Scrapers() {
  const [page, setPage] = useState(1);
  const scrapers = useLoad(() => api.scrapers(page), [page]);
  const [creating, setCreating] = useState(false);
  // The server is the judge of what the plan reaches: its refusal of the list turns the page into an offer.
  if (scrapers.problem?.code === 'endpoint_not_in_plan') {
    return (
      <>
        <h1>Scrapers</h1>
        <p className="lead">A scraper fetches a site's pages, by hand or on a schedule, and keeps what your selectors pick out.</p>
        <NotInPlan feature="scrapers" what="Scrapers" />
      </>
    );
  }
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
      <p className="lead">A scraper fetches a site's pages, by hand or on a schedule, and keeps what your selectors pick out.</p>
      {creating && <ScraperForm onCreated={() => (setCreating(false), scrapers.reload())} onCancel={() => setCreating(false)} />}
      <LoadProblem problem={scrapers.problem} retry={scrapers.reload} />
      {scrapers.loading && !scrapers.data && <Loading />}
      {scrapers.data && scrapers.data.meta.total === 0 && !creating && (
        <EmptyState
          title="No scrapers yet"
          action={
            <Button variant="primary" onClick={() => setCreating(true)}>
              Create your first scraper
            </Button>
          }
        >
          Give a start URL and, if you like, CSS selectors for the fields you want; then run it.
        </EmptyState>
      )}
      {scrapers.data && scrapers.data.data.length > 0 && (
        <ul className="list" aria-label="Scrapers">
          {scrapers.data.data.map((scraper) => (
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
          ))}
        </ul>
      )}
      {scrapers.data && (
        <Pager page={page} limit={scrapers.data.meta.limit} total={scrapers.data.meta.total} onPage={setPage} label="Scrapers" />
      )}
    </>
  );
}
