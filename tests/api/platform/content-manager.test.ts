import { startApp, type TestApp } from '../../helpers/app';
import { adminSession, type AdminSession } from '../../helpers/users';

/**
 * The Content Manager as an editor finds it on a new database: every type listed by a readable
 * field in a useful order, relation pickers naming entries by that field, and the records only the
 * plugin writes (keys, usage, runs, results, its bookkeeping) out of sight and out of reach.
 */
let app: TestApp;
let session: AdminSession;
const as = () => ({ Authorization: `Bearer ${session.token}` });

interface Configuration {
  settings: { mainField: string; defaultSortBy: string; defaultSortOrder: string; pageSize: number };
  metadatas: Record<
    string,
    { edit: { label?: string; mainField?: string; editable?: boolean; description?: string }; list: { label?: string } }
  >;
  layouts: { list: string[]; edit: Array<Array<{ name: string; size: number }>> };
}

async function configurationOf(uid: string): Promise<Configuration> {
  const response = await app.request().get(`/content-manager/content-types/${uid}/configuration`).set(as());
  expect(response.status).toBe(200);
  return response.body.data.contentType as Configuration;
}

beforeAll(async () => {
  app = await startApp();
  session = await adminSession(app);
});

afterAll(async () => {
  await app?.close();
});

describe('the views a new database gets', () => {
  it('lists articles by title, newest first, with their status, author and last change', async () => {
    const articles = await configurationOf('api::article.article');
    expect(articles.settings).toMatchObject({ mainField: 'title', defaultSortBy: 'createdAt', defaultSortOrder: 'DESC' });
    expect(articles.layouts.list).toEqual(['title', 'status', 'author', 'updatedAt']);
    expect(articles.metadatas.title.list.label).toBe('Title');
    // The UUID is shown in the form, last, and cannot be typed over.
    expect(articles.layouts.edit.flat().map((cell) => cell.name)).toEqual([
      'title',
      'slug',
      'status',
      'author',
      'excerpt',
      'body',
      'comments',
      'uuid',
    ]);
    expect(articles.metadatas.uuid.edit.editable).toBe(false);
  });

  it('names related entries by their main field in every relation picker', async () => {
    const articles = await configurationOf('api::article.article');
    expect(articles.metadatas.author.edit.mainField).toBe('name');
    expect(articles.metadatas.comments.edit.mainField).toBe('body');
    expect((await configurationOf('api::comment.comment')).metadatas.article.edit.mainField).toBe('title');
    expect((await configurationOf('api::author.author')).metadatas.articles.edit.mainField).toBe('title');
    expect((await configurationOf('plugin::api-suite.order')).metadatas.user.edit.mainField).toBe('email');
  });

  it('shows products, orders and plans with their money in the shop currency', async () => {
    const products = await configurationOf('api::product.product');
    expect(products.layouts.list).toEqual(['name', 'price', 'stock', 'published', 'menuindex', 'updatedAt']);
    expect(products.metadatas.price.list.label).toBe('Price (EUR)');
    const orders = await configurationOf('plugin::api-suite.order');
    expect(orders.settings).toMatchObject({ mainField: 'uuid', defaultSortBy: 'date_created', defaultSortOrder: 'DESC' });
    expect(orders.layouts.list).toEqual(['uuid', 'user', 'total', 'status', 'date_created']);
    expect(orders.metadatas.total.list.label).toBe('Total (EUR)');
    const plans = await configurationOf('plugin::api-suite.plan');
    expect(plans.layouts.list).toEqual(['name', 'price_monthly', 'requests_per_month', 'requests_per_minute', 'is_default']);
    expect(plans.metadatas.price_monthly.list.label).toBe('Price a month (EUR)');
  });

  it('lists the articles in that order through the Content Manager', async () => {
    const base = '/content-manager/collection-types/api::article.article';
    for (const title of ['First written', 'Second written']) {
      const created = await app.request().post(base).set(as()).send({ title, status: 'draft', excerpt: 'x', body: 'x' });
      expect(created.status).toBe(201);
    }
    const { settings } = await configurationOf('api::article.article');
    const list = await app
      .request()
      .get(base)
      .query({ sort: `${settings.defaultSortBy}:${settings.defaultSortOrder}` })
      .set(as());
    expect(list.status).toBe(200);
    expect(list.body.results.map((article: { title: string }) => article.title)).toEqual(['Second written', 'First written']);
    expect(list.body.results[0].status).toBe('draft');
  });
});

describe('what editors may change', () => {
  const HIDDEN = ['api-key', 'usage-record', 'webhook-topic', 'scraper-run', 'scraper-result', 'stripe-event'].map(
    (name) => `plugin::api-suite.${name}`
  );

  it("shows the plugin's plans, orders, scrapers and webhook settings, and not the records only the plugin writes", async () => {
    const response = await app.request().get('/content-manager/content-types').set(as());
    expect(response.status).toBe(200);
    const displayed = (response.body.data as Array<{ uid: string; isDisplayed: boolean }>)
      .filter((type) => type.isDisplayed)
      .map((type) => type.uid);
    expect(displayed.filter((uid) => uid.startsWith('plugin::api-suite.')).sort()).toEqual([
      'plugin::api-suite.order',
      'plugin::api-suite.plan',
      'plugin::api-suite.scraper',
      'plugin::api-suite.webhook-event-type',
      'plugin::api-suite.webhook-subscription',
    ]);
    expect(displayed).toEqual(expect.arrayContaining(['api::article.article', 'api::product.product']));
  });

  it("opens on the site's content: the first type by name is Article, not one of the plugin's", async () => {
    const response = await app.request().get('/content-manager/content-types').set(as());
    // The admin panel's order: displayed collection types by display name, as the Content Manager sorts its menu.
    const names = (response.body.data as Array<{ isDisplayed: boolean; kind: string; info: { displayName: string } }>)
      .filter((type) => type.isDisplayed && type.kind === 'collectionType')
      .map((type) => type.info.displayName)
      .sort((a, b) => a.localeCompare(b));
    expect(names[0]).toBe('Article');
  });

  it('lets nobody, the super admin included, create, change or delete API keys or scraper results there', async () => {
    const permissions = await app.request().get('/admin/users/me/permissions').set(as());
    for (const uid of HIDDEN) {
      const held = (permissions.body.data as Array<{ action: string; subject: string | null }>)
        .filter((permission) => permission.subject === uid)
        .map((permission) => permission.action);
      expect([uid, held]).toEqual([uid, ['plugin::content-manager.explorer.read']]);
    }

    const results = '/content-manager/collection-types/plugin::api-suite.scraper-result';
    const created = await app.request().post(results).set(as()).send({ scraper_id: 1, run_id: 1, url: 'https://example.com/' });
    expect(created.status).toBe(403);
    expect(await app.strapi.db.query('plugin::api-suite.scraper-result').count()).toBe(0);

    const keys = '/content-manager/collection-types/plugin::api-suite.api-key';
    const forged = await app
      .request()
      .post(keys)
      .set(as())
      .send({ name: 'forged', key_prefix: 'sk_forge', key_hash: 'f'.repeat(64), client_id: 'forged', scopes: ['read'], status: 'active' });
    expect(forged.status).toBe(403);
    expect(await app.strapi.db.query('plugin::api-suite.api-key').count({ where: { name: 'forged' } })).toBe(0);
  });

  it("keeps an editor's own changes to a view until the declared view changes", async () => {
    const uid = 'api::page.page';
    const mine = await configurationOf(uid);
    // As "Configure the view" sends it: the list's relation main fields are the Content Manager's to fill in, not the form's.
    const metadatas = Object.fromEntries(
      Object.entries(mine.metadatas).map(([field, { edit, list }]) => {
        const { mainField: _filledIn, ...listed } = list as { mainField?: unknown; label?: string };
        return [field, { edit, list: listed }];
      })
    );
    const changed = await app
      .request()
      .put(`/content-manager/content-types/${uid}/configuration`)
      .set(as())
      .send({
        settings: { ...mine.settings, defaultSortBy: 'title', defaultSortOrder: 'ASC' },
        metadatas,
        layouts: { ...mine.layouts, list: ['title', 'updatedAt'] },
      });
    expect([changed.status, changed.body?.error?.details ?? changed.body?.error]).toEqual([200, undefined]);

    // What a restart does: the declared views are written again only where their declaration changed.
    await app.strapi.plugin('api-suite').service('content-manager-views').apply();
    const kept = await configurationOf(uid);
    expect(kept.settings).toMatchObject({ defaultSortBy: 'title', defaultSortOrder: 'ASC' });
    expect(kept.layouts.list).toEqual(['title', 'updatedAt']);
  });
});

describe('a type whose own field is named status', () => {
  const ARTICLES = '/content-manager/collection-types/api::article.article';

  it('opens an article with its stored status and saves it unchanged', async () => {
    const created = await app
      .request()
      .post(ARTICLES)
      .set(as())
      .send({ title: 'Kept as published', status: 'published', excerpt: 'x', body: 'x' });
    expect([created.status, created.body.data?.status]).toEqual([201, 'published']);
    const { documentId } = created.body.data as { documentId: string };

    const opened = await app.request().get(`${ARTICLES}/${documentId}`).set(as());
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ title: 'Kept as published', status: 'published' });

    // What the edit view sends back when the editor saves without changing anything.
    const {
      id: _id,
      documentId: _documentId,
      createdAt: _c,
      updatedAt: _u,
      publishedAt: _p,
      createdBy: _cb,
      updatedBy: _ub,
      ...form
    } = opened.body.data as Record<string, unknown>;
    const saved = await app.request().put(`${ARTICLES}/${documentId}`).set(as()).send(form);
    expect([saved.status, saved.body.error]).toEqual([200, undefined]);
    expect(saved.body.data).toMatchObject({ title: 'Kept as published', status: 'published' });
    const stored = await app.strapi.db.query('api::article.article').findOne({ where: { documentId }, select: ['status'] });
    expect(stored.status).toBe('published');
  });

  it('changes the status when the editor changes it, and answers with the new one', async () => {
    const created = await app
      .request()
      .post(ARTICLES)
      .set(as())
      .send({ title: 'To be archived', status: 'published', excerpt: 'x', body: 'x' });
    const { documentId } = created.body.data as { documentId: string };
    const saved = await app.request().put(`${ARTICLES}/${documentId}`).set(as()).send({ title: 'To be archived', status: 'archived' });
    expect([saved.status, saved.body.data?.status]).toEqual([200, 'archived']);
    const opened = await app.request().get(`${ARTICLES}/${documentId}`).set(as());
    expect(opened.body.data.status).toBe('archived');
  });

  it('opens an order with its own status, not a publication status', async () => {
    const order = await app.strapi.db.query('plugin::api-suite.order').create({
      data: { uuid: 'b7a1c7b0-0000-4000-8000-000000000001', items: [], total: 10, status: 'shipped', publishedAt: new Date() },
    });
    const opened = await app.request().get(`/content-manager/collection-types/plugin::api-suite.order/${order.documentId}`).set(as());
    expect([opened.status, opened.body.data?.status]).toEqual([200, 'shipped']);
  });
});
