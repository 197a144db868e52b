import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { redisUrl } from '../../helpers/services';
import { startSite, type TestSite } from '../../helpers/site';
import { registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';

/**
 * Scraper runs across processes: the compare-and-set start holds across two instances, and a run
 * whose process is killed is marked failed with a clear error by the next one, its scraper idle
 * again. The test process serves the API but runs nothing (SCRAPER_WORKER=false).
 */
let app: TestApp;
let site: TestSite;
let alice: TestUser;
const instances: Instance[] = [];

beforeAll(async () => {
  site = await startSite();
  app = await startApp({ env: { SCRAPER_WORKER: 'false' } });
  alice = await registerUser(app, { plan: 'enterprise' });
}, 120_000);

afterAll(async () => {
  for (const instance of instances) await instance.kill();
  await app?.close();
  await site?.close();
});

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });

async function createScraper(url: string): Promise<number> {
  const response = await app.request().post('/api/v1/scrapers').set(as(alice)).send({ name: 'hang', url });
  expect(response.status).toBe(201);
  return response.body.id;
}

it('starts one run from concurrent requests spread over two instances', async () => {
  const other = await startInstance(app, { SCRAPER_WORKER: 'true' });
  instances.push(other);
  const id = await createScraper(`${site.url}/hang`);
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? app.request() : other.request()).post(`/api/v1/scrapers/${id}/run`).set(as(alice)))
  );
  expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
  const stopped = await app.request().post(`/api/v1/scrapers/${id}/stop`).set(as(alice));
  expect(stopped.status).toBe(200);
  await other.stop();
  instances.splice(instances.indexOf(other), 1);
}, 120_000);

it(`marks a run failed when its process is killed, and frees the scraper (${redisUrl ? 'BullMQ' : 'in-process'} driver)`, async () => {
  const first = await startInstance(app, { SCRAPER_WORKER: 'true' });
  instances.push(first);
  const id = await createScraper(`${site.url}/hang`);
  const started = await first.request().post(`/api/v1/scrapers/${id}/run`).set(as(alice));
  expect(started.status).toBe(202);
  const runUrl = `/api/v1/scrapers/${id}/runs/${started.body.run_id}`;
  await eventually(
    async () => ((await app.request().get(runUrl).set(as(alice))).body.status === 'running' ? true : undefined),
    20_000,
    'the run running'
  );
  await first.kill();

  const second = await startInstance(app, { SCRAPER_WORKER: 'true' });
  instances.push(second);
  // At boot with the in-process driver; within 15 s of the last heartbeat plus a sweep with BullMQ.
  const run = await eventually(
    async () => {
      const body = (await app.request().get(runUrl).set(as(alice))).body;
      return body.status === 'failed' ? body : undefined;
    },
    60_000,
    'the interrupted run marked failed'
  );
  expect(run.error).toMatch(/^interrupted: /);
  expect(run.finished_at).toEqual(expect.any(String));
  const scraper = (await app.request().get(`/api/v1/scrapers/${id}`).set(as(alice))).body;
  expect(scraper.status).toBe('idle');
  const again = await second.request().post(`/api/v1/scrapers/${id}/run`).set(as(alice));
  expect(again.status).toBe(202);
  await second.request().post(`/api/v1/scrapers/${id}/stop`).set(as(alice));
}, 180_000);
