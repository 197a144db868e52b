import net from 'node:net';
import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, fullAccessToken } from '../../helpers/users';
import { eventually, quietFor } from '../../helpers/wait';

/**
 * The content-change webhook (`CONTENT_WEBHOOK_URL`, docs/search-feed-cors.md): one best-effort
 * notification per committed save of a product, page or article, never retried.
 */

/**
 * A notification goes out as its save commits: a duplicate, a retry or one for a save that did not
 * commit would arrive well within this.
 */
const NOTIFICATION_WINDOW_MS = 300;

interface Created {
  id: number;
  documentId: string;
}

async function createContent(app: TestApp, token: string, plural: string, data: Record<string, unknown>, query = ''): Promise<Created> {
  const response = await app.request().post(`/api/${plural}${query}`).set('Authorization', `Bearer ${token}`).send({ data });
  if (response.status !== 201) throw new Error(`create ${plural}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as Created;
}

describe('the content-change webhook', () => {
  let app: TestApp;
  let token: string;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startApp({ env: { CONTENT_WEBHOOK_URL: `${receiver.url}/content` } });
    token = await fullAccessToken(app);
  });

  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  /** Waits for the next notification, checks it is the only new one, and returns its JSON body. */
  /** The first notification after the `before`-th request (the caller counts before it saves: the notification may arrive before the save's answer). */
  async function nextNotification(before = receiver.requests.length): Promise<Record<string, unknown>> {
    const requests = await receiver.waitFor(before + 1);
    const request = requests[before];
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/content');
    expect(request.headers['content-type']).toBe('application/json');
    return JSON.parse(request.body) as Record<string, unknown>;
  }

  /** Runs a save and returns what it answered and the one notification it caused. */
  async function saved<T>(save: () => Promise<T>): Promise<{ result: T; notification: Record<string, unknown> }> {
    const before = receiver.requests.length;
    const result = await save();
    const notification = await nextNotification(before);
    // Give a duplicate time to arrive, so "exactly one" is checked, not assumed.
    expect(await quietFor(NOTIFICATION_WINDOW_MS, () => receiver.requests.length, 'notifications')).toBe(before + 1);
    return { result, notification };
  }

  const put = (plural: string, documentId: string, data: Record<string, unknown>, query = '') =>
    app.request().put(`/api/${plural}/${documentId}${query}`).set('Authorization', `Bearer ${token}`).send({ data });

  it('announces a product creation and its updates', async () => {
    const { result: product, notification } = await saved(() =>
      createContent(app, token, 'products', {
        name: 'Webhook mug',
        slug: 'webhook-mug',
        price: 9,
        stock: 1,
        published: true,
        deleted: false,
      })
    );
    expect(notification).toEqual({ event: 'created', id: product.id, alias: 'webhook-mug', published: true });

    const hidden = await saved(() => put('products', product.documentId, { published: false }));
    expect(hidden.result.status).toBe(200);
    expect(hidden.notification).toEqual({ event: 'updated', id: product.id, alias: 'webhook-mug', published: false });

    const deleted = await saved(() => put('products', product.documentId, { published: true, deleted: true, slug: 'webhook-mug-2' }));
    expect(deleted.notification).toEqual({ event: 'updated', id: product.id, alias: 'webhook-mug-2', published: false });
  });

  it('announces an article creation and update with its status', async () => {
    const { result: article, notification } = await saved(() =>
      createContent(app, token, 'articles', { title: 'Webhook news', slug: 'webhook-news', status: 'draft' })
    );
    expect(notification).toEqual({ event: 'created', id: article.id, alias: 'webhook-news', published: false });

    const update = await saved(() => put('articles', article.documentId, { status: 'published' }));
    expect(update.result.status).toBe(200);
    expect(update.notification).toEqual({ event: 'updated', id: article.id, alias: 'webhook-news', published: true });
  });

  it('announces pages: published and draft creations, and a published update', async () => {
    const { result: page, notification } = await saved(() =>
      createContent(app, token, 'pages', { title: 'Webhook page', slug: 'webhook-page', body: 'Hi' }, '?status=published')
    );
    expect(notification).toEqual({ event: 'created', id: page.id, alias: 'webhook-page', published: true });

    const update = await saved(() => put('pages', page.documentId, { body: 'Hello' }));
    expect(update.result.status).toBe(200);
    // Strapi gives the published version a new id at every publish; the notification names it.
    expect(update.notification).toEqual({ event: 'updated', id: update.result.body.data.id, alias: 'webhook-page', published: true });

    const { result: draft, notification: draftNotification } = await saved(() =>
      createContent(app, token, 'pages', { title: 'Draft page', slug: 'draft-page' }, '?status=draft')
    );
    expect(draftNotification).toEqual({ event: 'created', id: draft.id, alias: 'draft-page', published: false });

    // A draft edit of a published page leaves it published.
    const draftEdit = await saved(() => put('pages', page.documentId, { body: 'Next version' }, '?status=draft'));
    expect(draftEdit.result.status).toBe(200);
    expect(draftEdit.notification).toEqual({ event: 'updated', id: update.result.body.data.id, alias: 'webhook-page', published: true });
  });

  it("sends one notification for the admin panel's save-and-publish", async () => {
    const admin = await adminSession(app);
    const base = '/content-manager/collection-types/api::page.page';
    const created = await saved(() =>
      app
        .request()
        .post(`${base}/actions/publish`)
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ title: 'Admin page', slug: 'admin-page' })
    );
    expect(created.result.status).toBe(200);
    const publishedId = created.result.body.data.id as number;
    const documentId = created.result.body.data.documentId as string;
    expect(created.notification).toEqual({ event: 'created', id: publishedId, alias: 'admin-page', published: true });

    const republished = await saved(() =>
      app
        .request()
        .post(`${base}/${documentId}/actions/publish`)
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ title: 'Admin page', slug: 'admin-page', body: 'Edited' })
    );
    expect(republished.result.status).toBe(200);
    expect(republished.notification).toEqual({
      event: 'updated',
      id: republished.result.body.data.id,
      alias: 'admin-page',
      published: true,
    });

    const unpublished = await saved(() =>
      app.request().post(`${base}/${documentId}/actions/unpublish`).set('Authorization', `Bearer ${admin.token}`).send({})
    );
    expect(unpublished.result.status).toBe(200);
    expect(unpublished.notification).toMatchObject({ event: 'updated', alias: 'admin-page', published: false });
  });

  it('waits for the commit of a surrounding transaction, and sends nothing when it rolls back', async () => {
    const before = receiver.requests.length;
    const products = app.strapi.documents('api::product.product');
    const committed = await app.strapi.db.transaction(async () => {
      const product = await products.create({
        data: { name: 'Committed mug', slug: 'committed-mug', price: 3, stock: 1, published: true },
      });
      // Still uncommitted: nobody outside may hear of it yet.
      expect(await quietFor(NOTIFICATION_WINDOW_MS, () => receiver.requests.length, 'notifications')).toBe(before);
      return product;
    });
    expect(await nextNotification(before)).toEqual({ event: 'created', id: committed.id, alias: 'committed-mug', published: true });

    await expect(
      app.strapi.db.transaction(async () => {
        await products.create({ data: { name: 'Rolled back mug', slug: 'rolled-back-mug', price: 3, stock: 1, published: true } });
        throw new Error('changed my mind');
      })
    ).rejects.toThrow('changed my mind');
    expect(await quietFor(NOTIFICATION_WINDOW_MS, () => receiver.requests.length, 'notifications')).toBe(before + 1);
  });

  it('sends nothing for a save that fails', async () => {
    const before = receiver.requests.length;
    const response = await app
      .request()
      .post('/api/products')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { name: 'No price', slug: 'no-price', stock: 1 } });
    expect(response.status).toBe(400);
    expect(await quietFor(NOTIFICATION_WINDOW_MS, () => receiver.requests.length, 'notifications')).toBe(before);
  });

  it('logs an endpoint that answers an error, without retrying', async () => {
    const warn = jest.spyOn(app.strapi.log, 'warn');
    receiver.setReply(() => ({ status: 500, body: 'boom' }));
    try {
      const { result } = await saved(() =>
        createContent(app, token, 'products', { name: 'Broken mug', slug: 'broken-mug', price: 1, stock: 1, published: true })
      );
      expect(result.id).toEqual(expect.any(Number));
      await eventually(
        () => (warn.mock.calls.some(([message]) => /content-webhook.*answered 500/.test(String(message))) ? true : undefined),
        2_000,
        'a warning that the endpoint answered 500'
      );
    } finally {
      warn.mockRestore();
      receiver.setReply(() => ({ status: 200 }));
    }
  });

  it('does not hold a save behind an endpoint that never answers, and gives up after 3 s', async () => {
    const warn = jest.spyOn(app.strapi.log, 'warn');
    receiver.setReply(() => ({ hang: true }));
    try {
      const before = receiver.requests.length;
      const started = Date.now();
      const response = await app
        .request()
        .post('/api/products')
        .set('Authorization', `Bearer ${token}`)
        .send({ data: { name: 'Patient mug', slug: 'patient-mug', price: 5, stock: 1, published: true } });
      const elapsed = Date.now() - started;
      expect(response.status).toBe(201);
      expect(elapsed).toBeLessThan(1000);
      await receiver.waitFor(before + 1);

      const update = await put('products', response.body.data.documentId as string, { stock: 2 });
      expect(update.status).toBe(200);
      await receiver.waitFor(before + 2);

      await eventually(
        () => (warn.mock.calls.some(([message]) => /content-webhook.*3000 ms/.test(String(message))) ? true : undefined),
        6_000,
        'a warning that the endpoint gave no answer within 3000 ms'
      );
      // One attempt per save: nothing is retried.
      expect(await quietFor(NOTIFICATION_WINDOW_MS, () => receiver.requests.length, 'notifications')).toBe(before + 2);
    } finally {
      warn.mockRestore();
      receiver.setReply(() => ({ status: 200 }));
    }
  });
});

describe('the content-change webhook with its endpoint down', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    const port = await closedPort();
    app = await startApp({ env: { CONTENT_WEBHOOK_URL: `http://127.0.0.1:${port}/content` } });
    token = await fullAccessToken(app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('saves anyway and logs the failure', async () => {
    const warn = jest.spyOn(app.strapi.log, 'warn');
    try {
      const created = await app
        .request()
        .post('/api/products')
        .set('Authorization', `Bearer ${token}`)
        .send({ data: { name: 'Lonely mug', slug: 'lonely-mug', price: 5, stock: 1, published: true } });
      expect(created.status).toBe(201);
      const updated = await app
        .request()
        .put(`/api/products/${created.body.data.documentId as string}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ data: { stock: 3 } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ name: 'Lonely mug', stock: 3 });

      await eventually(
        () => (warn.mock.calls.filter(([message]) => /content-webhook/.test(String(message))).length >= 2 ? true : undefined),
        5_000,
        'two content-webhook warnings'
      );
    } finally {
      warn.mockRestore();
    }
  });
});

/** A loopback port that nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
