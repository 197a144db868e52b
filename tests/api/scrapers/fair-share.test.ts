import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { redisUrl } from '../../helpers/services';
import { startSite, type TestSite } from '../../helpers/site';
import { registerUser, type TestUser } from '../../helpers/users';
import { eventually, quietFor } from '../../helpers/wait';

/**
 * One consumer's scrapers cannot take every run slot: with SCRAPER_RUNS_PER_CONSUMER at its
 * default of 2, a consumer's further runs wait as `pending` while another consumer's run starts.
 * Each process has 3 slots (SCRAPER_CONCURRENCY=3), so without the cap the first consumer would
 * hold all of them. With Redis a second instance executes runs too, and the cap holds across both.
 */
let app: TestApp;
let site: TestSite;
let alice: TestUser;
let bob: TestUser;
let other: Instance | undefined;

const CAP = 2;
/**
 * How long a run's one page takes: long enough that starting five runs one request after another
 * ends before the first two complete, even on a loaded machine (in CI, with 1.5 s, Alice's first
 * runs completed before Bob's had been started, and the run meant to be stopped while it waited
 * had its turn first).
 */
const CRAWL_MS = 5_000;
/** A waiting run's job is deferred for 500 ms at a time: within four such turns a stopped one would have come back. */
const STOPPED_JOB_RETURNS_MS = 2_000;

beforeAll(async () => {
  site = await startSite({ crawlMs: CRAWL_MS });
  app = await startApp({ env: { SCRAPER_CONCURRENCY: '3' } });
  if (redisUrl) other = await startInstance(app);
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
}, 120_000);

afterAll(async () => {
  await other?.stop();
  await app?.close();
  await site?.close();
});

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
/** Requests alternate between the instances, as behind a load balancer. */
let turn = 0;
const anyInstance = () => (other && turn++ % 2 === 1 ? other.request() : app.request());

type Run = {
  id: number;
  status: string;
  started_at: string | null;
  finished_at: string | null;
  pages_fetched: number;
  items_collected: number;
};
type Started = { user: TestUser; scraperId: number; runId: number; path: string };

async function createScraper(user: TestUser, name: string): Promise<{ id: number; path: string }> {
  const path = `/crawl/${name}-${user.id}`;
  const response = await app
    .request()
    .post('/api/v1/scrapers')
    .set(as(user))
    .send({ name, url: `${site.url}${path}` });
  expect(response.status).toBe(201);
  return { id: response.body.id, path };
}

async function startRun(user: TestUser, name: string): Promise<Started> {
  const scraper = await createScraper(user, name);
  const response = await anyInstance().post(`/api/v1/scrapers/${scraper.id}/run`).set(as(user));
  expect(response.status).toBe(202);
  expect(response.body).toEqual({ run_id: expect.any(Number), status: 'started' });
  return { user, scraperId: scraper.id, runId: response.body.run_id, path: scraper.path };
}

async function readRun(run: Started): Promise<Run> {
  const response = await anyInstance().get(`/api/v1/scrapers/${run.scraperId}/runs/${run.runId}`).set(as(run.user));
  expect(response.status).toBe(200);
  return response.body;
}

const ended = (run: Run) => ['completed', 'failed', 'stopped'].includes(run.status);

it(`runs at most ${CAP} of one consumer's runs at once${redisUrl ? ' across two instances' : ''}, and another consumer's run starts meanwhile`, async () => {
  const mine: Started[] = [];
  for (const name of ['a1', 'a2', 'a3', 'a4']) mine.push(await startRun(alice, name));
  const theirs = await startRun(bob, 'b1');

  let mostRunning = 0;
  let completedWhenBobStarted: number | undefined;
  let statuses: string[] = [];
  // How many of Alice's runs hold a slot, counted in one statement: the four reads below answer at
  // different moments (from two instances), so a run that just finished and the one that took its
  // slot could both read 'running' there (3 was seen on a loaded MariaDB run) without ever
  // running together.
  const runningNow = async () => {
    const [row] = (await app.strapi.db
      .connection('api_suite_scraper_runs')
      .whereIn(
        'id',
        mine.map((run) => run.runId)
      )
      .where({ status: 'running' })
      .count({ count: '*' })) as Array<{ count: number | string }>;
    return Number(row?.count ?? 0);
  };
  // Every poll is also a sample of how many run at once.
  await eventually(
    async () => {
      mostRunning = Math.max(mostRunning, await runningNow());
      const [runs, bobs] = await Promise.all([Promise.all(mine.map(readRun)), readRun(theirs)]);
      if (completedWhenBobStarted === undefined && ['running', 'completed'].includes(bobs.status)) {
        completedWhenBobStarted = runs.filter((run) => run.status === 'completed').length;
      }
      statuses = [...runs, bobs].map((run) => run.status);
      return runs.every(ended) && ended(bobs) ? true : undefined;
    },
    60_000,
    () => `every run ended (still: ${JSON.stringify(statuses)})`
  );

  const runs = await Promise.all(mine.map(readRun));
  const bobs = await readRun(theirs);
  expect([...runs, bobs].map((run) => run.status)).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
  expect([...runs, bobs].map((run) => run.items_collected)).toEqual([1, 1, 1, 1, 1]);
  expect(mostRunning).toBe(CAP);
  // Bob's run began before Alice's third and fourth finished (seen by polling and in the records).
  expect(completedWhenBobStarted).toBeLessThanOrEqual(CAP);
  const finished = runs.map((run) => Date.parse(run.finished_at as string)).sort((a, b) => a - b);
  expect(Date.parse(bobs.started_at as string)).toBeLessThan(finished[CAP]);
  // The waiting ones began only once one of the first two had finished.
  const starts = runs.map((run) => Date.parse(run.started_at as string)).sort((a, b) => a - b);
  expect(starts[CAP]).toBeGreaterThanOrEqual(finished[0]);
}, 90_000);

it("stops a run that waits for its consumer's turn: stopped, and it never runs", async () => {
  const mine: Started[] = [];
  for (const name of ['s1', 's2', 's3']) mine.push(await startRun(alice, name));
  const statuses = await eventually(
    async () => {
      const runs = await Promise.all(mine.map(readRun));
      return runs.filter((run) => run.status === 'running').length === CAP && runs.filter((run) => run.status === 'pending').length === 1
        ? runs
        : undefined;
    },
    20_000,
    `${CAP} runs running and one pending`
  );
  const waiting = mine[statuses.findIndex((run) => run.status === 'pending')];

  // A waiting run is pending and its scraper running, as any run that has not begun.
  const scraper = await app.request().get(`/api/v1/scrapers/${waiting.scraperId}`).set(as(alice));
  expect(scraper.body.status).toBe('running');
  const status = await app.request().get(`/api/v1/scrapers/${waiting.scraperId}/status`).set(as(alice));
  expect(status.body).toMatchObject({ id: waiting.scraperId, status: 'pending', items_count: 0 });

  const stopped = await anyInstance().post(`/api/v1/scrapers/${waiting.scraperId}/stop`).set(as(alice));
  expect(stopped.status).toBe(200);
  expect(stopped.body).toEqual({ run_id: waiting.runId, status: 'stopped' });

  const others = mine.filter((run) => run !== waiting);
  await eventually(
    async () => ((await Promise.all(others.map(readRun))).every((run) => run.status === 'completed') ? true : undefined),
    20_000,
    'the other runs completed'
  );
  // Its job comes back after the others freed their slots: it must find the run stopped and do nothing.
  await eventually(
    async () =>
      (await app.request().get(`/api/v1/scrapers/${waiting.scraperId}`).set(as(alice))).body.status === 'idle' ? true : undefined,
    5_000,
    'the scraper idle'
  );
  // Time for the stopped run's job to come back and be dropped: it must change nothing.
  const { run, hits } = await quietFor(
    STOPPED_JOB_RETURNS_MS,
    async () => ({ run: await readRun(waiting), hits: site.pageHits().filter((hit) => hit.path === waiting.path) }),
    'the stopped run and its pages'
  );
  expect(run).toMatchObject({ status: 'stopped', started_at: null, pages_fetched: 0, items_collected: 0 });
  expect(hits).toEqual([]);
  expect(site.pageHits().filter((hit) => others.some((run) => run.path === hit.path))).toHaveLength(2);
}, 60_000);
