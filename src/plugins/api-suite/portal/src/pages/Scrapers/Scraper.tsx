import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api, type Scraper, type ScraperRun } from '../../api';
import { Badge, EmptyState, formatDate, LoadProblem, Loading, Notice } from '../../components/feedback';
import { Button } from '../../components/form';
import { PagedList, usePaged } from '../../components/list';
import { useAction, useLoad } from '../../../../shared/hooks';
import { NotInPlan } from '../../plans/NotInPlan';
import { EMPTY_KEY_MEANS, ScraperForm } from './ScraperForm';

/** One scraper: every setting and an Edit, run and stop it, follow its runs while they go, and download what a run collected. */
export function ScraperPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const scraper = useLoad(() => api.scraper(id), [id]);
  const runs = usePaged((page) => api.runs(id, page), [id]);
  const running = scraper.data?.status === 'running';
  const { reload: reloadScraper } = scraper;
  const { reload: reloadRuns } = runs;
  const refresh = () => (reloadScraper(), reloadRuns());
  const [editing, setEditing] = useState(false);

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
      {scraper.data && editing && (
        <ScraperForm scraper={scraper.data} onSaved={() => (setEditing(false), refresh())} onCancel={() => setEditing(false)} />
      )}
      {scraper.data && !editing && (
        <section className="card" aria-label="Settings">
          <Settings scraper={scraper.data} />
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
            <Button onClick={() => setEditing(true)}>Edit</Button>
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

/** Every setting of the scraper, each in plain words, an empty one said as what it means. */
function Settings({ scraper }: { scraper: Scraper }) {
  const running = scraper.status === 'running';
  const fields = Object.entries(scraper.selectors?.fields ?? {});
  const headers = Object.keys(scraper.headers);
  return (
    <dl className="facts" data-testid="scraper-settings">
      <dt>Start URL</dt>
      <dd className="url">{scraper.url}</dd>
      <dt>Status</dt>
      <dd>
        <Badge tone={running ? 'busy' : 'neutral'}>{scraper.status}</Badge>
      </dd>
      <dt>Schedule</dt>
      <dd>{scraper.schedule ? `${scraper.schedule} (next ${formatDate(scraper.next_run_at)})` : 'only when run by hand'}</dd>
      <dt>Pages at most</dt>
      <dd>{scraper.max_pages}</dd>
      <dt>Links</dt>
      <dd>{scraper.follow_links ? 'follows links on the same site' : 'fetches the start URL only'}</dd>
      <dt>Speed</dt>
      <dd>
        at most {scraper.rate_limit} {scraper.rate_limit === 1 ? 'request' : 'requests'} a second
        {scraper.respect_robots_txt ? ", keeping to the site's robots.txt" : ", ignoring the site's robots.txt"}
        {scraper.proxy_pool ? `, through the proxy pool ${scraper.proxy_pool}` : ', directly (no proxy pool)'}
      </dd>
      <dt>Request headers</dt>
      <dd data-testid="scraper-headers">{headers.length > 0 ? headers.join(', ') : 'none beyond our own'}</dd>
      <dt>Item selector</dt>
      <dd data-testid="scraper-item">{scraper.selectors?.item ? <code>{scraper.selectors.item}</code> : 'none: one result per page'}</dd>
      <dt>Fields</dt>
      <dd data-testid="scraper-fields">
        {fields.length === 0 ? (
          "none: each page's URL and title"
        ) : (
          <ul className="plain">
            {fields.map(([name, selector]) => (
              <li key={name}>
                {name}: <code>{selector}</code>
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>Change detection</dt>
      <dd data-testid="scraper-change-detection">
        {scraper.change_detection === null
          ? 'off'
          : scraper.change_detection.key
            ? `on, items recognised by their ${scraper.change_detection.key} field`
            : `on. Key field: ${EMPTY_KEY_MEANS}`}
      </dd>
    </dl>
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
