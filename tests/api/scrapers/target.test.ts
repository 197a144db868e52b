import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, administratorOf, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, subscribe, waitForPosts } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';

/**
 * Scraped items become the site's content (docs/scrapers.md#writing-into-a-content-type): a
 * scraper with a target writes each run's items into one of the site's content types through the
 * document service. The demo's pages (draft & publish) and products (a decimal price) are written.
 */
let app: TestApp;
let site: Site;
let receiver: Receiver;
let admin: TestUser;
let consumer: TestUser;

const PAGE = 'api::page.page';
const PRODUCT = 'api::product.product';

interface Site {
  url: string;
  /** What each path lists now: path → items (each item's fields by class name). */
  lists: Map<string, Array<Record<string, string>>>;
  close(): Promise<void>;
}

/** A site whose pages list items, which the tests change between runs. */
async function startSite(): Promise<Site> {
  const lists = new Map<string, Array<Record<string, string>>>();
  const server = http.createServer((req, res) => {
    const items = lists.get(req.url ?? '/');
    if (!items) {
      res.writeHead(404).end();
      return;
    }
    const html = items
      .map(
        (item) =>
          `<div class="item">${Object.entries(item)
            .map(([name, value]) => `<span class="${name}">${value}</span>`)
            .join('')}</div>`
      )
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>List</title></head><body>${html}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lists,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  site = await startSite();
  receiver = await startReceiver();
  app = await startApp();
  admin = await administratorOf(app);
  consumer = await registerUser(app, { plan: 'enterprise' });
});

afterAll(async () => {
  await app?.close();
  await site?.close();
  await receiver?.close();
});

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const PAGE_SELECTORS = { item: '.item', fields: { slug: '.slug', title: '.title', body: '.body' } };
const PAGE_FIELDS = { slug: 'slug', title: 'title', body: 'body' };

interface Report {
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  failed: Array<{ key: string | null; field: string | null; reason: string }>;
  failed_count: number;
}

function pageItems(path: string, items: Array<[slug: string, title: string]>) {
  site.lists.set(
    path,
    items.map(([slug, title]) => ({ slug, title, body: `About ${title}` }))
  );
}

async function createScraper(user: TestUser, body: Record<string, unknown>) {
  return app
    .request()
    .post('/api/v1/scrapers')
    .set(as(user))
    .send({ name: 'listing', selectors: PAGE_SELECTORS, ...body });
}

async function targetScraper(path: string, target: Record<string, unknown>, selectors: unknown = PAGE_SELECTORS): Promise<number> {
  const response = await createScraper(admin, { url: `${site.url}${path}`, selectors, target });
  if (response.status !== 201) throw new Error(`scraper creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}

async function runToEnd(scraperId: number): Promise<{ id: number; status: string; target_report: Report | null; error: string | null }> {
  const started = await app.request().post(`/api/v1/scrapers/${scraperId}/run`).set(as(admin));
  expect(started.status).toBe(202);
  const run = await eventually(
    async () => {
      const body = (await app.request().get(`/api/v1/scrapers/${scraperId}/runs/${started.body.run_id}`).set(as(admin))).body;
      return ['completed', 'failed', 'stopped'].includes(body.status) ? body : undefined;
    },
    30_000,
    'the run ended'
  );
  expect(run).toMatchObject({ status: 'completed', error: null });
  return run;
}

type Doc = { documentId: string; slug: string; title: string; publishedAt: string | null };

/** The versions of the pages with these slugs: drafts, or published ones. */
async function pages(slugs: string[], status: 'draft' | 'published'): Promise<Doc[]> {
  const found = (await app.strapi
    .documents(PAGE)
    .findMany({ filters: { slug: { $in: slugs } }, status, sort: 'slug:asc' })) as unknown as Doc[];
  return found;
}

const countOf = (report: Report | null) => report && { ...report, failed: report.failed.length };

describe('a scraper writing into a content type', () => {
  it('creates drafts on a first run, and their page.created events reach an administrator’s subscription', async () => {
    await subscribe(app, admin, { endpoint_url: `${receiver.url}/staff`, events: ['page.created'] });
    pageItems('/drafts', [
      ['dr-a', 'Alpha'],
      ['dr-b', 'Beta'],
      ['dr-c', 'Gamma'],
    ]);
    const id = await targetScraper('/drafts', { type: PAGE, key: 'slug', fields: PAGE_FIELDS });
    const scraper = (await app.request().get(`/api/v1/scrapers/${id}`).set(as(admin))).body;
    expect(scraper.target).toEqual({ type: PAGE, key: 'slug', fields: PAGE_FIELDS, publish: 'draft', removed: 'keep' });

    const run = await runToEnd(id);
    expect(countOf(run.target_report)).toEqual({ created: 3, updated: 0, unchanged: 0, removed: 0, failed: 0, failed_count: 0 });
    const drafts = await pages(['dr-a', 'dr-b', 'dr-c'], 'draft');
    expect(drafts.map((doc) => [doc.slug, doc.title])).toEqual([
      ['dr-a', 'Alpha'],
      ['dr-b', 'Beta'],
      ['dr-c', 'Gamma'],
    ]);
    expect(await pages(['dr-a', 'dr-b', 'dr-c'], 'published')).toEqual([]);

    const events = await waitForPosts(
      receiver,
      3,
      (request) => request.path === '/staff' && String(eventOf(request).data.slug).startsWith('dr-')
    );
    expect(events.map((request) => eventOf(request).type)).toEqual(['page.created', 'page.created', 'page.created']);
    expect(events.map((request) => eventOf(request).data.slug).sort()).toEqual(['dr-a', 'dr-b', 'dr-c']);
  });

  it('updates exactly the changed item’s document as a draft over its published version, and unpublishes one gone', async () => {
    pageItems('/review', [
      ['rv-a', 'One'],
      ['rv-b', 'Two'],
      ['rv-c', 'Three'],
    ]);
    const id = await targetScraper('/review', { type: PAGE, key: 'slug', fields: PAGE_FIELDS, removed: 'unpublish' });
    const first = await runToEnd(id);
    const [a, b, c] = await pages(['rv-a', 'rv-b', 'rv-c'], 'draft');
    // An editor publishes two of them.
    await app.strapi.documents(PAGE).publish({ documentId: b.documentId });
    await app.strapi.documents(PAGE).publish({ documentId: c.documentId });

    pageItems('/review', [
      ['rv-a', 'One'],
      ['rv-b', 'Two, revised'],
      ['rv-c', 'Three'],
    ]);
    const second = await runToEnd(id);
    expect(countOf(second.target_report)).toEqual({ created: 0, updated: 1, unchanged: 2, removed: 0, failed: 0, failed_count: 0 });
    const drafts = await pages(['rv-a', 'rv-b', 'rv-c'], 'draft');
    expect(drafts.map((doc) => doc.documentId)).toEqual([a.documentId, b.documentId, c.documentId]);
    expect(drafts.map((doc) => doc.title)).toEqual(['One', 'Two, revised', 'Three']);
    // The published version waits for an editor.
    expect((await pages(['rv-b'], 'published')).map((doc) => doc.title)).toEqual(['Two']);

    // rv-c leaves the site: its published version goes, its draft stays; once.
    pageItems('/review', [
      ['rv-a', 'One'],
      ['rv-b', 'Two, revised'],
    ]);
    const third = await runToEnd(id);
    expect(countOf(third.target_report)).toEqual({ created: 0, updated: 0, unchanged: 2, removed: 1, failed: 0, failed_count: 0 });
    expect((await pages(['rv-b', 'rv-c'], 'published')).map((doc) => doc.slug)).toEqual(['rv-b']);
    expect((await pages(['rv-c'], 'draft')).map((doc) => doc.documentId)).toEqual([c.documentId]);
    const fourth = await runToEnd(id);
    expect(countOf(fourth.target_report)).toMatchObject({ unchanged: 2, removed: 0 });

    // What editors see: each run's page lists what it wrote, and a document names the run that last wrote it.
    const panel = { Authorization: `Bearer ${(await adminSession(app)).token}` };
    const writesOf = async (run: { id: number }) => {
      const response = await app.request().get(`/api-suite/scrapers/${id}/runs/${run.id}/writes`).set(panel);
      expect(response.status).toBe(200);
      return (response.body.data as Array<{ action: string; item_key: string; document_id: string; content_type: string }>).map((write) => [
        write.action,
        write.item_key,
        write.document_id,
        write.content_type,
      ]);
    };
    expect(await writesOf(first)).toEqual([
      ['created', 'rv-a', a.documentId, PAGE],
      ['created', 'rv-b', b.documentId, PAGE],
      ['created', 'rv-c', c.documentId, PAGE],
    ]);
    expect(await writesOf(second)).toEqual([['updated', 'rv-b', b.documentId, PAGE]]);
    expect(await writesOf(third)).toEqual([['unpublished', 'rv-c', c.documentId, PAGE]]);
    expect(await writesOf(fourth)).toEqual([]);
    const writtenBy = async (documentId: string) =>
      (await app.request().get('/api-suite/scrapers/written-by').query({ type: PAGE, document_id: documentId }).set(panel).expect(200)).body
        .data;
    expect(await writtenBy(a.documentId)).toEqual({
      scraper: { id, name: 'listing' },
      run_id: first.id,
      action: 'created',
      written_at: expect.any(String),
    });
    expect(await writtenBy(b.documentId)).toMatchObject({ run_id: second.id, action: 'updated' });
    expect(await writtenBy(c.documentId)).toMatchObject({ run_id: third.id, action: 'unpublished' });
    expect(await writtenBy('nobody-wrote-this')).toBeNull();
    // Another run's id under this scraper is no run of it.
    expect((await app.request().get(`/api-suite/scrapers/${id}/runs/999999/writes`).set(panel)).status).toBe(404);
  });

  it('deletes a gone document with removed: "delete", and a run killed midway leaves no duplicate', async () => {
    pageItems('/gone', [
      ['gn-a', 'Kept'],
      ['gn-b', 'Leaving'],
    ]);
    const id = await targetScraper('/gone', { type: PAGE, key: 'slug', fields: PAGE_FIELDS, removed: 'delete' });
    await runToEnd(id);
    const [first] = await pages(['gn-b'], 'draft');

    // As a run killed between creating gn-b's document and recording it leaves things.
    await app.strapi.db
      .connection('api_suite_scraper_target_entries')
      .where({ scraper_id: id, item_key: 'gn-b' })
      .update({ document_id: null, content_hash: null });
    const again = await runToEnd(id);
    expect(countOf(again.target_report)).toEqual({ created: 0, updated: 1, unchanged: 1, removed: 0, failed: 0, failed_count: 0 });
    expect((await pages(['gn-a', 'gn-b'], 'draft')).map((doc) => doc.slug)).toEqual(['gn-a', 'gn-b']);

    pageItems('/gone', [['gn-a', 'Kept']]);
    const last = await runToEnd(id);
    expect(countOf(last.target_report)).toMatchObject({ removed: 1 });
    expect(await app.strapi.documents(PAGE).findOne({ documentId: first.documentId })).toBeNull();
    expect((await pages(['gn-a', 'gn-b'], 'draft')).map((doc) => doc.slug)).toEqual(['gn-a']);
  });

  it('publishes what it writes with publish: "auto"', async () => {
    pageItems('/auto', [
      ['au-a', 'Live'],
      ['au-b', 'Also live'],
    ]);
    const id = await targetScraper('/auto', { type: PAGE, key: 'slug', fields: PAGE_FIELDS, publish: 'auto' });
    await runToEnd(id);
    expect((await pages(['au-a', 'au-b'], 'published')).map((doc) => doc.title)).toEqual(['Live', 'Also live']);

    pageItems('/auto', [
      ['au-a', 'Live, changed'],
      ['au-b', 'Also live'],
    ]);
    const second = await runToEnd(id);
    expect(countOf(second.target_report)).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect((await pages(['au-a', 'au-b'], 'published')).map((doc) => doc.title)).toEqual(['Live, changed', 'Also live']);
  });

  it('reports an item whose number cannot be read and writes the others', async () => {
    site.lists.set('/products', [
      { slug: 'tg-lamp', name: 'Lamp', price: '$1,200.50' },
      { slug: 'tg-chair', name: 'Chair', price: 'call us' },
      { slug: 'tg-desk', name: 'Desk', price: '80' },
    ]);
    const id = await targetScraper(
      '/products',
      { type: PRODUCT, key: 'slug', fields: { slug: 'slug', name: 'name', price: 'price' } },
      { item: '.item', fields: { slug: '.slug', name: '.name', price: '.price' } }
    );
    const run = await runToEnd(id);
    expect(run.target_report).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      removed: 0,
      failed: [{ key: 'tg-chair', field: 'price', reason: expect.stringContaining('not a number') }],
      failed_count: 1,
    });
    const products = (await app.strapi
      .documents(PRODUCT)
      .findMany({ filters: { slug: { $startsWith: 'tg-' } }, sort: 'slug:asc' })) as unknown as Array<{
      slug: string;
      price: number | string;
    }>;
    expect(products.map((product) => [product.slug, Number(product.price)])).toEqual([
      ['tg-desk', 80],
      ['tg-lamp', 1200.5],
    ]);
  });
});

describe('who may set a target, and what it may name', () => {
  it('refuses a consumer who is not an administrator (403), on create and on change', async () => {
    const target = { type: PAGE, key: 'slug', fields: PAGE_FIELDS };
    const created = await createScraper(consumer, { url: `${site.url}/drafts`, target });
    expect(created.status).toBe(403);
    expect(created.body.error).toMatchObject({ code: 'target_not_allowed' });

    const own = await createScraper(consumer, { url: `${site.url}/drafts` });
    expect(own.status).toBe(201);
    const patched = await app.request().patch(`/api/v1/scrapers/${own.body.id}`).set(as(consumer)).send({ target });
    expect(patched.status).toBe(403);
    expect(patched.body.error.code).toBe('target_not_allowed');
    expect((await app.request().get(`/api/v1/scrapers/${own.body.id}`).set(as(consumer))).body.target).toBeNull();
  });

  it.each([
    ['an unknown type', { type: 'api::nothing.nothing', key: 'slug', fields: PAGE_FIELDS }, 'target.type'],
    ['a key that is no attribute', { type: PAGE, key: 'sku', fields: PAGE_FIELDS }, 'target.key'],
    ['an unknown item field', { type: PAGE, key: 'slug', fields: { ...PAGE_FIELDS, title: 'headline' } }, 'target.fields.title'],
    ['an unknown attribute', { type: PAGE, key: 'slug', fields: { ...PAGE_FIELDS, subtitle: 'title' } }, 'target.fields.subtitle'],
    [
      'a relation',
      { type: 'api::article.article', key: 'slug', fields: { slug: 'slug', title: 'title', author: 'body' } },
      'target.fields.author',
    ],
  ])('answers 422 invalid_target for %s, naming its path, and saves nothing', async (_name, target, path) => {
    const before = await app.strapi.db.query('plugin::api-suite.scraper').count();
    const response = await createScraper(admin, { url: `${site.url}/drafts`, target });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: { code: 'invalid_target', message: expect.stringContaining(path), details: { path } } });
    expect(await app.strapi.db.query('plugin::api-suite.scraper').count()).toBe(before);
  });

  it('lets the admin panel set a target, and shows a fault in it under its path', async () => {
    const token = (await adminSession(app)).token;
    const body = { name: 'panel', url: `${site.url}/drafts`, selectors: PAGE_SELECTORS, user_id: consumer.id };
    const refused = await app
      .request()
      .post('/api-suite/scrapers')
      .set({ Authorization: `Bearer ${token}` })
      .send({ ...body, target: { type: PAGE, key: 'slug', fields: { ...PAGE_FIELDS, title: 'headline' } } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      name: 'invalid_target',
      details: { errors: [expect.objectContaining({ path: ['target', 'fields', 'title'] })] },
    });
    const created = await app
      .request()
      .post('/api-suite/scrapers')
      .set({ Authorization: `Bearer ${token}` })
      .send({ ...body, target: { type: PAGE, key: 'slug', fields: PAGE_FIELDS, publish: 'auto' } });
    expect(created.status).toBe(201);
    expect(created.body.data.target).toMatchObject({ type: PAGE, publish: 'auto', removed: 'keep' });

    // The consumer it was made for owns it, but its start URL and selectors decide what is published
    // on the site: they may run it, not point it somewhere else.
    const id = created.body.data.id as number;
    const moved = await app
      .request()
      .patch(`/api/v1/scrapers/${id}`)
      .set(as(consumer))
      .send({ url: `${site.url}/elsewhere` });
    expect(moved.status).toBe(403);
    expect(moved.body.error).toMatchObject({ code: 'target_not_allowed' });
    const kept = await app.request().get(`/api/v1/scrapers/${id}`).set(as(consumer));
    expect(kept.body.url).toBe(`${site.url}/drafts`);
    expect((await app.request().post(`/api/v1/scrapers/${id}/run`).set(as(consumer))).status).toBeLessThan(300);
  });

  it('checks a change of selectors against the target it keeps', async () => {
    const id = await targetScraper('/drafts', { type: PAGE, key: 'slug', fields: PAGE_FIELDS });
    const response = await app
      .request()
      .patch(`/api/v1/scrapers/${id}`)
      .set(as(admin))
      .send({ selectors: { item: '.item', fields: { slug: '.slug', title: '.title' } } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'invalid_target', details: { path: 'target.fields.body' } });
  });
});
