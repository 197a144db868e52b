import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, fullAccessToken, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, posts, subscribe, verify, waitForPosts, type CreatedSubscription } from '../../helpers/webhooks';

/**
 * The site's own content types as webhook events (docs/webhooks.md#the-sites-own-content): every
 * `api::` type of the host (authors, comments and pages here, beside the seeds' articles and
 * products) gets S.created, S.updated, S.deleted, and S.published / S.unpublished when it has
 * draft & publish; payloads are the version as the content API shows it, private fields never,
 * relations filled one level deep. Every delivery is also checked against its catalog schema by
 * the receiver (tests/helpers/event-schemas.ts).
 */

const CM = '/content-manager/collection-types';

interface EventType {
  name: string;
  description: string;
  schema: { properties?: Record<string, unknown>; required?: string[] };
  example_payload: Record<string, unknown>;
}

async function catalog(app: TestApp, user: TestUser): Promise<Map<string, EventType>> {
  const response = await app.request().get('/api/webhooks/event-types').set('Authorization', `Bearer ${user.jwt}`);
  expect(response.status).toBe(200);
  return new Map((response.body.data as EventType[]).map((type) => [type.name, type]));
}

function received(receiver: Receiver, type: string, match: (data: Record<string, unknown>) => boolean = () => true) {
  return (request: Parameters<Parameters<typeof waitForPosts>[2] & object>[0]) => {
    const event = eventOf(request);
    return event.type === type && match(event.data);
  };
}

describe('content events of the site’s own types', () => {
  let app: TestApp;
  let consumer: TestUser;
  let receiver: Receiver;
  let subscription: CreatedSubscription;
  let token: string;
  let admin: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startApp();
    // An administrator: the page's editorial events (about its draft) reach the site's staff only (drafts.test.ts).
    consumer = await makeAdministrator(app, await registerUser(app, { plan: 'pro' }));
    token = await fullAccessToken(app);
    admin = (await adminSession(app)).token;
    subscription = await subscribe(app, consumer, {
      endpoint_url: `${receiver.url}/content`,
      events: [
        'author.created',
        'author.updated',
        'author.deleted',
        'comment.created',
        'page.created',
        'page.published',
        'page.unpublished',
        'page.deleted',
        'article.unpublished',
      ],
    });
  });

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it('lists each type’s events in the catalog, with a schema from its attributes that leaves private fields out', async () => {
    const types = await catalog(app, consumer);
    for (const name of ['author.created', 'author.updated', 'author.deleted', 'comment.created', 'comment.deleted'])
      expect(types.has(name)).toBe(true);
    // Authors and comments have no draft & publish: no publication events.
    expect(types.has('author.published')).toBe(false);
    expect(types.has('comment.unpublished')).toBe(false);
    for (const name of ['page.created', 'page.updated', 'page.published', 'page.unpublished', 'page.deleted'])
      expect(types.has(name)).toBe(true);
    // The seeds' own events keep their names, and gain article.unpublished and product.deleted.
    for (const name of ['article.created', 'article.published', 'article.unpublished', 'product.updated', 'product.deleted'])
      expect(types.has(name)).toBe(true);

    const author = types.get('author.created') as EventType;
    expect([author.description, (types.get('comment.created') as EventType).description]).toEqual([
      'An Author was created.',
      'A Comment was created.',
    ]);
    expect(Object.keys(author.schema.properties ?? {}).sort()).toEqual(
      ['articles', 'createdAt', 'documentId', 'id', 'locale', 'name', 'publishedAt', 'updatedAt'].sort()
    );
    expect(author.example_payload).not.toHaveProperty('email');
    expect(Array.isArray(author.example_payload.articles)).toBe(true);
    const published = types.get('page.published') as EventType;
    expect(published.example_payload.publishedAt).toEqual(expect.any(String));
    expect((types.get('page.created') as EventType).example_payload.publishedAt).toBeNull();
  });

  it('announces an author made through the content API, without its private e-mail, signed', async () => {
    const created = await app
      .request()
      .post('/api/authors')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { name: 'Ada Lovelace', email: 'ada@example.test' } });
    expect(created.status).toBe(201);
    const [delivery] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'author.created', (data) => data.name === 'Ada Lovelace')
    );
    verify(subscription.secret, delivery);
    const { data } = eventOf(delivery);
    expect(data).toEqual({
      id: created.body.data.id,
      documentId: created.body.data.documentId,
      name: 'Ada Lovelace',
      articles: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      publishedAt: expect.any(String),
      locale: null,
    });
  });

  it('fills a relation one level deep, with the related document’s own relations as ids', async () => {
    const author = await app
      .request()
      .post('/api/authors')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { name: 'Grace' } });
    const article = await app
      .request()
      .post('/api/articles')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { title: 'Relations', slug: 'relations-in-events', status: 'published', author: author.body.data.documentId } });
    expect(article.status).toBe(201);
    const comment = await app
      .request()
      .post('/api/comments')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { body: 'Nice', article: article.body.data.documentId } });
    expect(comment.status).toBe(201);
    const [delivery] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'comment.created', (data) => data.body === 'Nice')
    );
    const related = eventOf(delivery).data.article as Record<string, unknown>;
    expect(related).toMatchObject({ documentId: article.body.data.documentId, title: 'Relations', status: 'published' });
    expect(related.author).toEqual({ id: expect.any(Number), documentId: author.body.data.documentId });
    expect(related.comments).toEqual([{ id: comment.body.data.id, documentId: comment.body.data.documentId }]);
  });

  it('follows a page through the Content Manager: created as a draft, published, unpublished, deleted as it was', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    const created = await app.request().post(`${CM}/api::page.page`).set(auth).send({ title: 'About us', slug: 'about-us-events' });
    expect(created.status).toBe(201);
    const documentId = created.body.data.documentId as string;
    const [draft] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'page.created', (data) => data.documentId === documentId)
    );
    expect(eventOf(draft).data).toMatchObject({ title: 'About us', publishedAt: null });

    expect((await app.request().post(`${CM}/api::page.page/${documentId}/actions/publish`).set(auth).send({})).status).toBe(200);
    const [published] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'page.published', (data) => data.documentId === documentId)
    );
    expect(eventOf(published).data).toMatchObject({ title: 'About us', publishedAt: expect.any(String) });

    expect((await app.request().post(`${CM}/api::page.page/${documentId}/actions/unpublish`).set(auth).send({})).status).toBe(200);
    const [unpublished] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'page.unpublished', (data) => data.documentId === documentId)
    );
    // The version that was published, as the content API showed it until then.
    expect(eventOf(unpublished).data).toMatchObject({ title: 'About us', publishedAt: expect.any(String) });

    expect((await app.request().delete(`${CM}/api::page.page/${documentId}`).set(auth)).status).toBe(200);
    const [deleted] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'page.deleted', (data) => data.documentId === documentId)
    );
    expect(eventOf(deleted).data).toMatchObject({ title: 'About us', slug: 'about-us-events' });
  });

  it('announces a bulk publish as one event per document', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    const ids: string[] = [];
    for (const title of ['Bulk one', 'Bulk two', 'Bulk three']) {
      const created = await app.request().post(`${CM}/api::page.page`).set(auth).send({ title });
      expect(created.status).toBe(201);
      ids.push(created.body.data.documentId as string);
    }
    const bulk = await app.request().post(`${CM}/api::page.page/actions/bulkPublish`).set(auth).send({ documentIds: ids });
    expect(bulk.status).toBe(200);
    const deliveries = await waitForPosts(
      receiver,
      3,
      received(receiver, 'page.published', (data) => ids.includes(String(data.documentId)))
    );
    expect(new Set(deliveries.map((delivery) => eventOf(delivery).data.documentId))).toEqual(new Set(ids));
  });

  it('announces a change made by the document service in code, and a deletion with the document as it was', async () => {
    const documents = app.strapi.documents('api::author.author' as never) as unknown as {
      create(params: unknown): Promise<{ documentId: string }>;
      update(params: unknown): Promise<unknown>;
      delete(params: unknown): Promise<unknown>;
    };
    const author = await documents.create({ data: { name: 'Script', email: 'script@example.test' } });
    await documents.update({ documentId: author.documentId, data: { name: 'Script renamed' } });
    const [updated] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'author.updated', (data) => data.documentId === author.documentId)
    );
    expect(eventOf(updated).data.name).toBe('Script renamed');
    await documents.delete({ documentId: author.documentId });
    const [deleted] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'author.deleted', (data) => data.documentId === author.documentId)
    );
    expect(eventOf(deleted).data).toMatchObject({ name: 'Script renamed' });
    expect(eventOf(deleted).data).not.toHaveProperty('email');
  });

  it('has every event of a write published once publishing settles, as it does before the database closes at shutdown', async () => {
    const documents = app.strapi.documents('api::author.author' as never) as unknown as {
      create(params: unknown): Promise<{ documentId: string }>;
    };
    const webhooks = app.strapi.plugin('api-suite').service('webhooks') as { settle(): Promise<void> };
    const table = app.strapi.db.metadata.get('plugin::api-suite.webhook-delivery' as never).tableName;
    const written = await Promise.all(['Late one', 'Late two', 'Late three'].map((name) => documents.create({ data: { name } })));
    await webhooks.settle();
    const rows = (await app.strapi.db.connection(table).select('payload').where({ event_type: 'author.created' })) as Array<{
      payload: unknown;
    }>;
    const announced = rows.map(
      (row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as { documentId: string }
    );
    expect(announced.map((payload) => payload.documentId)).toEqual(expect.arrayContaining(written.map((author) => author.documentId)));
  });

  it('sends article.unpublished when an article stops being published', async () => {
    const created = await app
      .request()
      .post('/api/articles')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { title: 'Soon archived', slug: 'soon-archived', status: 'published' } });
    expect(created.status).toBe(201);
    const changed = await app
      .request()
      .put(`/api/articles/${created.body.data.documentId}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { status: 'archived' } });
    expect(changed.status).toBe(200);
    const [delivery] = await waitForPosts(
      receiver,
      1,
      received(receiver, 'article.unpublished', (data) => data.slug === 'soon-archived')
    );
    expect(eventOf(delivery).data).toMatchObject({ title: 'Soon archived', status: 'archived' });
    expect(posts(receiver).every((request) => eventOf(request).type !== 'author.published')).toBe(true);
  });
});

describe('content events narrowed by the plugin config', () => {
  let app: TestApp;
  let consumer: TestUser;
  let receiver: Receiver;
  let token: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Only pages and comments are watched; comments' relations are ids only.
    app = await startApp({ env: { WEBHOOK_CONTENT_TYPES: 'api::page.page,api::comment.comment', WEBHOOK_POPULATE: 'comment=0' } });
    consumer = await registerUser(app, { plan: 'pro' });
    token = await fullAccessToken(app);
  });

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it('leaves a type that is not watched out of the catalog, and refuses a subscription to it', async () => {
    const types = await catalog(app, consumer);
    expect(types.has('comment.created')).toBe(true);
    expect(types.has('page.published')).toBe(true);
    expect(types.has('author.created')).toBe(false);
    expect(types.has('article.created')).toBe(false);
    const refused = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set('Authorization', `Bearer ${consumer.jwt}`)
      .send({ endpoint_url: `${receiver.url}/x`, events: ['author.created'] });
    expect(refused.status).toBe(422);
    expect(refused.body.invalid_events).toEqual(['author.created']);
  });

  it('fills relations to the configured depth: 0 gives ids only', async () => {
    await subscribe(app, consumer, { endpoint_url: `${receiver.url}/narrow`, events: ['comment.created'] });
    const article = await app
      .request()
      .post('/api/articles')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { title: 'Shallow', slug: 'shallow', status: 'published' } });
    const comment = await app
      .request()
      .post('/api/comments')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { body: 'Shallow comment', article: article.body.data.documentId } });
    expect(comment.status).toBe(201);
    const [delivery] = await waitForPosts(receiver, 1, received(receiver, 'comment.created'));
    expect(eventOf(delivery).data.article).toEqual({ id: expect.any(Number), documentId: article.body.data.documentId });
    const types = await catalog(app, consumer);
    expect((types.get('comment.created') as EventType).example_payload.article).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
    });
  });
});
