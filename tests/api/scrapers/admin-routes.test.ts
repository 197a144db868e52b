import { startApp, type TestApp } from '../../helpers/app';
import { adminAuth, createPluginReader, type AdminEditor } from '../../helpers/admin-users';
import { startSite, type TestSite } from '../../helpers/site';
import { adminSession, registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';
import { expectAnswer } from '../../helpers/answers';
import { adminScraper } from '../../../src/plugins/api-suite/server/src/features/scrapers/validation/responses';

/**
 * The scrapers' admin-panel routes (/api-suite/scrapers/*): creating a scraper for a consumer,
 * running it, its runs and results, with Strapi's error body and field-by-field validation
 * messages. Who may call them: tests/api/platform/admin-permissions.test.ts.
 */
let app: TestApp;
let site: TestSite;
let owner: string;
let reader: AdminEditor;
let alice: TestUser;

const as = adminAuth;

beforeAll(async () => {
  site = await startSite();
  app = await startApp();
  owner = (await adminSession(app)).token;
  reader = await createPluginReader(app);
  alice = await registerUser(app, { plan: 'enterprise' });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

describe('scrapers', () => {
  it("shows the server's validation messages field by field", async () => {
    const response = await app
      .request()
      .post('/api-suite/scrapers')
      .set(as(owner))
      .send({ name: '', url: 'ftp://nope', schedule: 'every minute', max_pages: 0 });
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe('validation_error');
    const fields = (response.body.error.details.errors as Array<{ path: string[] }>).map((error) => error.path.join('.'));
    expect(fields.sort()).toEqual(['max_pages', 'name', 'schedule', 'url', 'user_id']);

    const unknown = await app.request().post('/api-suite/scrapers').set(as(owner)).send({ name: 'x', url: site.url, user_id: 999_999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.errors).toEqual([
      { path: ['user_id'], message: 'must be an existing user', name: 'ValidationError' },
    ]);
  });

  it('creates a scraper for a chosen consumer, runs it and shows the run and its results', async () => {
    const created = await app
      .request()
      .post('/api-suite/scrapers')
      .set(as(owner))
      .send({
        name: 'Shop',
        url: `${site.url}/`,
        user_id: alice.id,
        schedule: '0 3 * * *',
        selectors: { item: '.product', fields: { name: '.name' } },
        change_detection: { key: 'name' },
      });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Shop',
      status: 'idle',
      next_run_at: expect.any(String),
      owner: { id: alice.id },
      latest_run: null,
    });
    expectAnswer(adminScraper, created.body.data);
    const id = created.body.data.id as number;
    // It is the consumer's own: the API shows it to Alice.
    const mine = await app.request().get(`/api/v1/scrapers/${id}`).set(as(alice.jwt));
    expect(mine.status).toBe(200);

    const started = await app.request().post(`/api-suite/scrapers/${id}/run`).set(as(owner));
    expect(started.status).toBe(202);
    const runId = started.body.data.run_id as number;
    const run = await eventually(
      async () => {
        const response = await app.request().get(`/api-suite/scrapers/${id}/runs/${runId}`).set(as(reader.token));
        return response.body.data.status === 'completed' ? response.body.data : undefined;
      },
      30_000,
      'the run to complete'
    );
    expect(run).toMatchObject({ items_collected: 3, pages_fetched: 1, trigger: 'manual' });
    const results = await app.request().get(`/api-suite/scrapers/${id}/results?run_id=${runId}`).set(as(reader.token));
    expect(results.body.data.map((result: { data: { name: string } }) => result.data.name)).toEqual(['A', 'B', 'C']);
    expect(run).toMatchObject({ items_new: 3, items_changed: 0, items_removed: 0 });
    const unchanged = await app.request().get(`/api-suite/scrapers/${id}/results?run_id=${runId}&change=unchanged`).set(as(reader.token));
    expect(unchanged.body.meta.total).toBe(0);
    const badKey = await app
      .request()
      .put(`/api-suite/scrapers/${id}`)
      .set(as(owner))
      .send({ change_detection: { key: 'colour' } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.details.errors).toEqual([
      expect.objectContaining({ path: ['change_detection', 'key'], message: "must be one of the items' fields (name)" }),
    ]);
    const runs = await app.request().get(`/api-suite/scrapers/${id}/runs`).set(as(owner));
    expect(runs.body.meta.total).toBe(1);

    const stop = await app.request().post(`/api-suite/scrapers/${id}/stop`).set(as(owner));
    expect(stop.status).toBe(409);
    expect(stop.body.error.name).toBe('not_running');

    const edited = await app.request().put(`/api-suite/scrapers/${id}`).set(as(owner)).send({ schedule: null, max_pages: 5 });
    expect(edited.body.data).toMatchObject({
      schedule: null,
      next_run_at: null,
      max_pages: 5,
      latest_run: { id: runId, status: 'completed' },
    });
    expect((await app.request().delete(`/api-suite/scrapers/${id}`).set(as(owner))).status).toBe(204);
    expect((await app.request().get(`/api-suite/scrapers/${id}`).set(as(owner))).status).toBe(404);
  }, 60_000);
});
