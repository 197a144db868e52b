import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { registerUser, type TestUser } from '../../helpers/users';
import { eventOf, posts, verify, waitForPosts } from '../../helpers/webhooks';
import { eventually, quietFor } from '../../helpers/wait';

/** Change detection between completed runs: keyed hashes, run counts, each result's change, the filter, and results.changed. */
let app: TestApp;
let shop: Shop;
let receiver: Receiver;
let alice: TestUser;

interface Shop {
  url: string;
  /** The catalogue the page lists now: sku → price. */
  products: Map<string, string>;
  /** Answer the page after this long (to stop a run while it waits). */
  delayMs: number;
  /** How many times the page was asked for. */
  readonly pageRequests: number;
  close(): Promise<void>;
}

/** One page listing the current catalogue, which the test changes between runs. */
async function startShop(): Promise<Shop> {
  const products = new Map<string, string>();
  const state = { delayMs: 0, pageRequests: 0 };
  const server = http.createServer((req, res) => {
    if ((req.url ?? '/').startsWith('/robots.txt')) {
      res.writeHead(404).end();
      return;
    }
    state.pageRequests += 1;
    const items = [...products]
      .map(([sku, price]) => `<div class="p"><span class="sku">${sku}</span><span class="price">${price}</span></div>`)
      .join('');
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Shop</title></head><body>${items}</body></html>`);
    }, state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    products,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    get pageRequests() {
      return state.pageRequests;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  shop = await startShop();
  receiver = await startReceiver();
  app = await startApp();
  alice = await registerUser(app, { plan: 'enterprise' });
});

afterAll(async () => {
  await app?.close();
  await shop?.close();
  await receiver?.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const SELECTORS = { item: '.p', fields: { sku: '.sku', price: '.price' } };

function stock(entries: Array<[string, string]>) {
  shop.products.clear();
  for (const [sku, price] of entries) shop.products.set(sku, price);
}

async function createScraper(body: Record<string, unknown>) {
  const response = await app
    .request()
    .post('/api/v1/scrapers')
    .set(as(alice))
    .send({ name: 'shop', url: `${shop.url}/`, selectors: SELECTORS, ...body });
  if (response.status !== 201) throw new Error(`scraper creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { id: number } & Record<string, unknown>;
}

async function runToEnd(scraperId: number) {
  const started = await app.request().post(`/api/v1/scrapers/${scraperId}/run`).set(as(alice));
  expect(started.status).toBe(202);
  return eventually(
    async () => {
      const run = (await app.request().get(`/api/v1/scrapers/${scraperId}/runs/${started.body.run_id}`).set(as(alice))).body;
      return ['completed', 'failed', 'stopped'].includes(run.status) ? run : undefined;
    },
    20_000,
    'the run ended'
  );
}

/** The run's results as `sku: change`, in collection order. */
async function changesOf(scraperId: number, runId: number, filter = '') {
  const response = await app.request().get(`/api/v1/scrapers/${scraperId}/results?run_id=${runId}&limit=100${filter}`).set(as(alice));
  expect(response.status).toBe(200);
  return (response.body.data as Array<{ data: { sku: string }; change: string | null }>).map(
    (result) => `${result.data.sku}: ${result.change}`
  );
}

const changedEvents = (path: string) =>
  posts(receiver).filter((request) => request.path === path && request.headers['x-webhook-event'] === 'results.changed');

describe('change detection', () => {
  it('compares each completed run with the previous one by key and content: counts, changes, the filter and results.changed', async () => {
    const hook = await app
      .request()
      .post('/api/v1/webhooks')
      .set(as(alice))
      .send({ url: `${receiver.url}/changes`, events: ['results.changed', 'run.completed'] });
    expect(hook.status).toBe(201);
    expect(hook.body.events).toEqual(['results.changed', 'run.completed']);

    const scraper = await createScraper({ change_detection: { key: 'sku' } });
    expect(scraper.change_detection).toEqual({ key: 'sku' });

    // First run: nothing to compare with, so every item is new.
    stock([
      ['A', '10'],
      ['B', '20'],
      ['C', '30'],
    ]);
    const first = await runToEnd(scraper.id);
    expect(first).toEqual({
      id: expect.any(Number),
      scraper_id: scraper.id,
      status: 'completed',
      trigger: 'manual',
      started_at: expect.stringMatching(ISO),
      finished_at: expect.stringMatching(ISO),
      items_collected: 3,
      pages_fetched: 1,
      pages_failed: 0,
      items_new: 3,
      items_changed: 0,
      items_removed: 0,
      target_report: null,
      error: null,
      created_at: expect.stringMatching(ISO),
    });
    expect(await changesOf(scraper.id, first.id)).toEqual(['A: new', 'B: new', 'C: new']);
    const [firstEvent] = await waitForPosts(
      receiver,
      1,
      (request) => request.path === '/changes' && request.headers['x-webhook-event'] === 'results.changed'
    );
    expect(verify(hook.body.secret, firstEvent)).toEqual({
      type: 'results.changed',
      timestamp: expect.stringMatching(ISO),
      data: { run_id: first.id, scraper_id: scraper.id, new: 3, changed: 0, removed: 0 },
    });

    // Second run: B's price changed, C is gone, D is new, A is as it was.
    stock([
      ['A', '10'],
      ['B', '25'],
      ['D', '40'],
    ]);
    const second = await runToEnd(scraper.id);
    expect(second).toMatchObject({ status: 'completed', items_collected: 3, items_new: 1, items_changed: 1, items_removed: 1 });
    expect(await changesOf(scraper.id, second.id)).toEqual(['A: unchanged', 'B: changed', 'D: new']);
    expect(await changesOf(scraper.id, second.id, '&change=new,changed')).toEqual(['B: changed', 'D: new']);
    expect(await changesOf(scraper.id, second.id, '&change=unchanged')).toEqual(['A: unchanged']);
    const filtered = await app.request().get(`/api/v1/scrapers/${scraper.id}/results?change=new&limit=100`).set(as(alice));
    expect(filtered.body.meta).toEqual({ page: 1, limit: 100, total: 4 });
    expect(filtered.body.data[0]).toEqual({
      id: expect.any(Number),
      run_id: first.id,
      url: `${shop.url}/`,
      data: { sku: 'A', price: '10' },
      change: 'new',
      created_at: expect.stringMatching(ISO),
    });
    const secondEvent = (
      await waitForPosts(receiver, 2, (request) => request.path === '/changes' && request.headers['x-webhook-event'] === 'results.changed')
    )[1];
    expect(eventOf(secondEvent).data).toEqual({ run_id: second.id, scraper_id: scraper.id, new: 1, changed: 1, removed: 1 });

    // The filter also narrows the exports, which then carry the change column.
    const csv = await app
      .request()
      .get(`/api/v1/scrapers/${scraper.id}/results?format=csv&run_id=${second.id}&change=changed`)
      .set(as(alice))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => done(null, text));
      });
    expect(csv.status).toBe(200);
    const rows = String(csv.body).trim().split('\n');
    expect(rows[0]).toBe('id,run_id,url,created_at,change,sku,price');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/,changed,B,25$/);

    // Third run, nothing changed: counts of zero, every result unchanged, and no event.
    const third = await runToEnd(scraper.id);
    expect(third).toMatchObject({ status: 'completed', items_new: 0, items_changed: 0, items_removed: 0 });
    expect(await changesOf(scraper.id, third.id)).toEqual(['A: unchanged', 'B: unchanged', 'D: unchanged']);
    // The third run's run.completed arrives; a results.changed, published just after it, would have too by a second later.
    await waitForPosts(
      receiver,
      1,
      (request) => request.path === '/changes' && eventOf(request).type === 'run.completed' && eventOf(request).data.run_id === third.id
    );
    const changedRuns = await quietFor(
      1_000,
      () => changedEvents('/changes').map((request) => eventOf(request).data.run_id),
      'the runs announced as changed'
    );
    expect(changedRuns).toEqual([first.id, second.id]);
  });

  it("answers 400 to a change filter it does not know, in the API's error body", async () => {
    const scraper = await createScraper({ change_detection: {} });
    for (const change of ['added', 'new,gone', '', ',']) {
      const response = await app.request().get(`/api/v1/scrapers/${scraper.id}/results`).query({ change }).set(as(alice));
      expect({ change, status: response.status, body: response.body }).toEqual({
        change,
        status: 400,
        body: {
          error: {
            code: 'validation_error',
            message: expect.stringContaining('change'),
            details: [expect.objectContaining({ field: expect.stringMatching(/^change/) })],
          },
        },
      });
    }
  });

  it("keys by the item's URL without a key field: items sharing a key count once and change together", async () => {
    stock([
      ['A', '10'],
      ['B', '20'],
    ]);
    // No url field among the selectors: every item is keyed by its page's URL.
    const byPage = await createScraper({ change_detection: {} });
    expect(byPage.change_detection).toEqual({});
    const first = await runToEnd(byPage.id);
    expect(first).toMatchObject({ status: 'completed', items_collected: 2, items_new: 1, items_changed: 0, items_removed: 0 });
    expect(await changesOf(byPage.id, first.id)).toEqual(['A: new', 'B: new']);
    stock([
      ['A', '10'],
      ['B', '21'],
    ]);
    const second = await runToEnd(byPage.id);
    expect(second).toMatchObject({ items_new: 0, items_changed: 1, items_removed: 0 });
    expect(await changesOf(byPage.id, second.id)).toEqual(['A: changed', 'B: changed']);
  });

  it('refuses a key the items do not have', async () => {
    const byUrl = await createScraper({ selectors: null, change_detection: {} });
    const run = await runToEnd(byUrl.id);
    expect(run).toMatchObject({ status: 'completed', items_collected: 1, items_new: 1, items_changed: 0, items_removed: 0 });

    const refused = await app
      .request()
      .post('/api/v1/scrapers')
      .set(as(alice))
      .send({ name: 'x', url: `${shop.url}/`, selectors: SELECTORS, change_detection: { key: 'colour' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: {
        code: 'validation_error',
        message: "change_detection.key: must be one of the items' fields (sku, price)",
        details: [{ field: 'change_detection.key', message: "must be one of the items' fields (sku, price)" }],
      },
    });
    // A PATCH is checked against the selectors it leaves in place.
    const patched = await app
      .request()
      .patch(`/api/v1/scrapers/${byUrl.id}`)
      .set(as(alice))
      .send({ change_detection: { key: 'sku' } });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual([
      { field: 'change_detection.key', message: "must be one of the items' fields (url, title)" },
    ]);
  });

  it('leaves results and counts null without change detection, and compares nothing for a stopped run', async () => {
    stock([['A', '10']]);
    const plain = await createScraper({});
    expect(plain.change_detection).toBeNull();
    const run = await runToEnd(plain.id);
    expect(run).toMatchObject({ status: 'completed', items_collected: 1, items_new: null, items_changed: null, items_removed: null });
    expect(await changesOf(plain.id, run.id)).toEqual(['A: null']);
    expect(await changesOf(plain.id, run.id, '&change=new,changed,unchanged')).toEqual([]);

    // With it on: a first completed run, then a run stopped while the page is on its way.
    const watched = await createScraper({ change_detection: { key: 'sku' } });
    expect(await runToEnd(watched.id)).toMatchObject({ items_new: 1 });
    stock([['B', '20']]);
    shop.delayMs = 3_000;
    const asked = shop.pageRequests;
    const started = await app.request().post(`/api/v1/scrapers/${watched.id}/run`).set(as(alice));
    await eventually(() => (shop.pageRequests > asked ? true : undefined), 10_000, 'the run asking for the page');
    expect((await app.request().post(`/api/v1/scrapers/${watched.id}/stop`).set(as(alice))).status).toBe(200);
    shop.delayMs = 0;
    const stopped = (await app.request().get(`/api/v1/scrapers/${watched.id}/runs/${started.body.run_id}`).set(as(alice))).body;
    expect(stopped).toMatchObject({ status: 'stopped', items_new: null, items_changed: null, items_removed: null });
    // The next completed run compares with the last completed one, not the stopped one.
    const after = await runToEnd(watched.id);
    expect(after).toMatchObject({ status: 'completed', items_new: 1, items_changed: 0, items_removed: 1 });

    // Turning it off and on again starts afresh.
    expect(
      (await app.request().patch(`/api/v1/scrapers/${watched.id}`).set(as(alice)).send({ change_detection: null })).body.change_detection
    ).toBeNull();
    expect((await runToEnd(watched.id)).items_new).toBeNull();
    await app
      .request()
      .patch(`/api/v1/scrapers/${watched.id}`)
      .set(as(alice))
      .send({ change_detection: { key: 'sku' } });
    expect(await runToEnd(watched.id)).toMatchObject({ items_new: 1, items_changed: 0, items_removed: 0 });
  });

  it('leaves a run uncompared when its key changed while it ran, and compares the next one afresh', async () => {
    stock([['A', '10']]);
    const scraper = await createScraper({ change_detection: { key: 'sku' } });
    shop.delayMs = 1_500;
    const asked = shop.pageRequests;
    const started = await app.request().post(`/api/v1/scrapers/${scraper.id}/run`).set(as(alice));
    await eventually(() => (shop.pageRequests > asked ? true : undefined), 10_000, 'the run asking for the page');
    expect(
      (
        await app
          .request()
          .patch(`/api/v1/scrapers/${scraper.id}`)
          .set(as(alice))
          .send({ change_detection: { key: 'price' } })
      ).status
    ).toBe(200);
    const run = await eventually(async () => {
      const current = (await app.request().get(`/api/v1/scrapers/${scraper.id}/runs/${started.body.run_id}`).set(as(alice))).body;
      return current.status === 'completed' ? current : undefined;
    });
    shop.delayMs = 0;
    expect(run).toMatchObject({ items_collected: 1, items_new: null, items_changed: null, items_removed: null });
    expect(await changesOf(scraper.id, run.id)).toEqual(['A: null']);
    expect(await runToEnd(scraper.id)).toMatchObject({ items_new: 1, items_changed: 0, items_removed: 0 });
  });

  it('counts exactly across the batches it reads and writes in, and keeps one state row per distinct key, however many runs', async () => {
    // 1,200 items: more than one batch of state rows read (1,000) and of upserts and deletes (500).
    const catalogue = Array.from({ length: 1_200 }, (_, index) => [`K${index}`, String(index)] as [string, string]);
    stock(catalogue);
    const scraper = await createScraper({ change_detection: { key: 'sku' } });
    expect(await runToEnd(scraper.id)).toMatchObject({ items_collected: 1_200, items_new: 1_200, items_changed: 0, items_removed: 0 });
    // 600 new prices, 550 gone, 10 new.
    stock([
      ...catalogue.slice(0, 600).map(([sku, price]) => [sku, `${price}.5`] as [string, string]),
      ...catalogue.slice(600, 650),
      ...Array.from({ length: 10 }, (_, index) => [`N${index}`, '1'] as [string, string]),
    ]);
    expect(await runToEnd(scraper.id)).toMatchObject({ items_collected: 660, items_new: 10, items_changed: 600, items_removed: 550 });
    expect(await runToEnd(scraper.id)).toMatchObject({ items_new: 0, items_changed: 0, items_removed: 0 });
    const states = () =>
      app.strapi.db.connection('api_suite_scraper_item_states').where({ scraper_id: scraper.id }).count({ count: '*' }).first();
    expect(Number((await states())?.count)).toBe(660);
    expect((await app.request().delete(`/api/v1/scrapers/${scraper.id}`).set(as(alice))).status).toBe(204);
    expect(Number((await states())?.count)).toBe(0);
  });
});
