import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api, type ScraperRun } from '../../api';
import { Badge, EmptyState, formatDate, LoadProblem, Loading, Notice } from '../../components/feedback';
import { Button } from '../../components/form';
import { PagedList, usePaged } from '../../components/list';
import { useAction, useLoad } from '../../../../shared/hooks';
import { NotInPlan } from '../../plans/NotInPlan';

/** One scraper: run and stop it, follow its runs while they go, and download what a run collected. */
export function ScraperPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const scraper = useLoad(() => api.scraper(id), [id]);
  const runs = usePaged((page) => api.runs(id, page), [id]);
  const running = scraper.data?.status === 'running';
  const { reload: reloadScraper } = scraper;
  const { reload: reloadRuns } = runs;
  const refresh = () => (reloadScraper(), reloadRuns());

  // While a run goes, follow it: the run list and the scraper's status every 2 seconds.
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => (reloadScraper(), reloadRuns()), 2_000);
    return () => clearInterval(timer);
  }, [running, reloadScraper, reloadRuns]);

  const run = useAction(async () => (await api.runScraper(id), refresh()));
  const stop = useAction(async () => (await api.stopScraper(id), refresh()));
  const remove = useAction(async () => (await api.deleteScraper(id), navigate('/scrapers')));
  const problem = run.problem ?? stop.problem ?? remove.problem;

  return (
    <>
      <p className="crumbs">
        <Link to="/scrapers">Scrapers</Link> /
      </p>
      <h1>{scraper.data?.name ?? 'Scraper'}</h1>
      {scraper.problem?.status === 404 ? (
        <Notice tone="error">This scraper does not exist, or is not yours.</Notice>
      ) : scraper.problem?.code === 'endpoint_not_in_plan' ? (
        <NotInPlan feature="scrapers" what="Scrapers" />
      ) : (
        <LoadProblem problem={scraper.problem} retry={scraper.reload} />
      )}
      {problem && <Notice tone="error">{problem.message}</Notice>}
      {scraper.loading && !scraper.data && <Loading />}
      {scraper.data && (
        <section className="card">
          <dl className="facts">
            <dt>Start URL</dt>
            <dd className="url">{scraper.data.url}</dd>
            <dt>Status</dt>
            <dd>
              <Badge tone={running ? 'busy' : 'neutral'}>{scraper.data.status}</Badge>
            </dd>
            <dt>Schedule</dt>
            <dd>
              {scraper.data.schedule ? `${scraper.data.schedule} (next ${formatDate(scraper.data.next_run_at)})` : 'only when run by hand'}
            </dd>
            <dt>Pages at most</dt>
            <dd>{scraper.data.max_pages}</dd>
          </dl>
          <div className="form-actions">
            {running ? (
              <Button busy={stop.busy} onClick={() => void stop.run()}>
                Stop
              </Button>
            ) : (
              <Button variant="primary" busy={run.busy} onClick={() => void run.run()}>
                Run now
              </Button>
            )}
            <Button variant="danger" busy={remove.busy} disabled={running} onClick={() => void remove.run()}>
              Delete
            </Button>
          </div>
        </section>
      )}
      {scraper.problem?.code !== 'endpoint_not_in_plan' && (
        <section className="card" aria-labelledby="runs-heading">
          <h2 id="runs-heading">Runs</h2>
          <PagedList
            list={runs}
            label="Runs"
            spinner={false}
            empty={<EmptyState title="No runs yet">Press "Run now" to fetch the pages; the results appear here.</EmptyState>}
            row={(entry) => <RunRow key={entry.id} scraperId={id} run={entry} />}
          />
        </section>
      )}
    </>
  );
}

function RunRow({ scraperId, run }: { scraperId: number; run: ScraperRun }) {
  const download = useAction((format: 'csv' | 'ndjson', change?: 'new,changed') => api.downloadResults(scraperId, run.id, format, change));
  const compared = run.items_new !== null && run.items_changed !== null && run.items_removed !== null;
  const going = run.status === 'pending' || run.status === 'running';
  const tone = run.status === 'completed' ? 'good' : run.status === 'failed' ? 'bad' : going ? 'busy' : 'neutral';
  return (
    <li className="row" data-testid="run-row">
      <div className="row-main">
        Run {run.id} <Badge tone={tone}>{run.status}</Badge> <span className="muted">({run.trigger})</span>
        <div className="muted">
          {formatDate(run.started_at ?? run.created_at)} · {counted(run.pages_fetched, 'page')}, {counted(run.items_collected, 'item')}
          {run.pages_failed > 0 && `, ${counted(run.pages_failed, 'page')} failed`}
          {going && ' · in progress…'}
        </div>
        {compared && (
          <div className="muted" data-testid="run-changes">
            {run.items_new} new · {run.items_changed} changed · {run.items_removed} removed
          </div>
        )}
        {run.error && <div className="field-error">{run.error}</div>}
        {download.problem && <div className="field-error">{download.problem.message}</div>}
      </div>
      {run.items_collected > 0 && (
        <div className="row-actions">
          <Button busy={download.busy} onClick={() => void download.run('csv')}>
            Download CSV
          </Button>
          <Button busy={download.busy} onClick={() => void download.run('ndjson')}>
            NDJSON
          </Button>
          {compared && (run.items_new ?? 0) + (run.items_changed ?? 0) > 0 && (
            <Button busy={download.busy} onClick={() => void download.run('csv', 'new,changed')}>
              New and changed (CSV)
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

/** "1 page", "2 pages". */
function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
