import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, fullAccessToken, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, posts, subscribe, waitForPosts, type CreatedSubscription } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';

/**
 * Drafts stay the staff's (docs/webhooks.md#drafts-and-audiences): on a draft & publish type
 * (the demo's pages), a consumer's subscription to `page.*` receives only what the published
 * content API shows (`page.published`, and `page.unpublished` / `page.deleted` of a document that
 * was published, carrying that version), never `page.created` or `page.updated` of a draft, which
 * an administrator's subscription still receives. Relations in any event are read as the public
 * reads them: a comment on a draft article carries no article.
 *
 * Negative checks wait for a later event that the outbox publishes after the one that must not
 * arrive (it publishes in the order changes were committed), then look at the subscription's
 * delivery records: no fixed wait.
 */
const CM = '/content-manager/collection-types';

describe('drafts and the two audiences of content events', () => {
  let app: TestApp;
  let receiver: Receiver;
  let consumer: TestUser;
  let staff: TestUser;
  let consumerSub: CreatedSubscription;
  let staffSub: CreatedSubscription;
  let admin: Record<string, string>;
  let token: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startApp();
    consumer = await registerUser(app, { plan: 'pro' });
    staff = await makeAdministrator(app, await registerUser(app, { plan: 'pro' }));
    admin = { Authorization: `Bearer ${(await adminSession(app)).token}` };
    token = await fullAccessToken(app);
    consumerSub = await subscribe(app, consumer, { endpoint_url: `${receiver.url}/consumer`, events: ['page.*', 'comment.created'] });
    staffSub = await subscribe(app, staff, { endpoint_url: `${receiver.url}/staff`, events: ['page.*'] });
  });

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  /** The event types and documents of a subscription's delivery records. */
  async function recorded(
    subscription: CreatedSubscription
  ): Promise<Array<{ type: string; documentId: string; data: Record<string, unknown> }>> {
    const table = app.strapi.db.metadata.get('plugin::api-suite.webhook-delivery' as never).tableName;
    const subscriptions = app.strapi.db.metadata.get('plugin::api-suite.webhook-subscription' as never).tableName;
    const [row] = (await app.strapi.db.connection(subscriptions).select('id').where({ uuid: subscription.id })) as Array<{ id: number }>;
    const rows = (await app.strapi.db
      .connection(table)
      .select('event_type', 'payload')
      .where({ subscription_id: row.id })
      .orderBy('id')) as Array<{
      event_type: string;
      payload: unknown;
    }>;
    return rows
      .filter((item) => item.event_type !== 'webhook.test')
      .map((item) => {
        const data = (typeof item.payload === 'string' ? JSON.parse(item.payload) : item.payload) as Record<string, unknown>;
        return { type: item.event_type, documentId: String(data.documentId), data };
      });
  }

  const of =
    (documentId: string) =>
    <T extends { documentId: string }>(items: T[]): T[] =>
      items.filter((item) => item.documentId === documentId);

  it('marks the events about drafts as the staff’s in the catalog, and refuses them by name to a consumer', async () => {
    const catalog = await app.request().get('/api/webhooks/event-types').set('Authorization', `Bearer ${consumer.jwt}`);
    expect(catalog.status).toBe(200);
    const audience = Object.fromEntries(
      (catalog.body.data as Array<{ name: string; audience: string }>).map((type) => [type.name, type.audience])
    );
    expect(audience).toMatchObject({
      'page.created': 'staff',
      'page.updated': 'staff',
      'page.published': 'everyone',
      'page.unpublished': 'everyone',
      'page.deleted': 'everyone',
      // Authors have no draft & publish: every change is what the content API shows.
      'author.created': 'everyone',
      'author.updated': 'everyone',
    });
    const refused = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set('Authorization', `Bearer ${consumer.jwt}`)
      .send({ endpoint_url: `${receiver.url}/x`, events: ['page.created', 'page.published'] });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'invalid_events', invalid_events: ['page.created'] });
    expect(refused.body.error).toMatch(/staff/);
    // The same name is an administrator's to take.
    await subscribe(app, staff, { endpoint_url: `${receiver.url}/staff-named`, events: ['page.created'] });
  });

  it('sends a consumer the published version only, and the staff every editorial event', async () => {
    const created = await app.request().post(`${CM}/api::page.page`).set(admin).send({ title: 'Embargoed', slug: 'embargoed' });
    expect(created.status).toBe(201);
    const documentId = created.body.data.documentId as string;
    expect((await app.request().put(`${CM}/api::page.page/${documentId}`).set(admin).send({ title: 'Embargoed, v2' })).status).toBe(200);
    expect((await app.request().post(`${CM}/api::page.page/${documentId}/actions/publish`).set(admin).send({})).status).toBe(200);
    // A new draft over the published version: the staff's again.
    expect((await app.request().put(`${CM}/api::page.page/${documentId}`).set(admin).send({ title: 'Embargoed, v3 (draft)' })).status).toBe(
      200
    );
    expect((await app.request().post(`${CM}/api::page.page/${documentId}/actions/unpublish`).set(admin).send({})).status).toBe(200);

    const staffSeen = await eventually(async () => {
      const items = of(documentId)(await recorded(staffSub));
      return items.some((item) => item.type === 'page.unpublished') ? items : undefined;
    });
    // (The Content Manager's publish saves the draft first: one more page.updated before page.published.)
    const staffTypes = staffSeen.map((item) => item.type);
    expect(staffTypes[0]).toBe('page.created');
    expect(staffTypes.at(-1)).toBe('page.unpublished');
    expect(staffTypes.filter((type) => type === 'page.published')).toHaveLength(1);
    expect(staffTypes.filter((type) => type === 'page.updated').length).toBeGreaterThanOrEqual(2);
    expect(staffSeen[0].data).toMatchObject({ title: expect.stringMatching(/^Embargoed/), publishedAt: null });

    const consumerSeen = await eventually(async () => {
      const items = of(documentId)(await recorded(consumerSub));
      return items.some((item) => item.type === 'page.unpublished') ? items : undefined;
    });
    expect(consumerSeen.map((item) => item.type)).toEqual(['page.published', 'page.unpublished']);
    expect(consumerSeen[0].data).toMatchObject({ title: 'Embargoed, v2', publishedAt: expect.any(String) });
    // What was withdrawn is the version the content API showed, not the draft over it.
    expect(consumerSeen[1].data).toMatchObject({ title: 'Embargoed, v2', publishedAt: expect.any(String) });
    const delivered = await waitForPosts(
      receiver,
      2,
      (request) => request.path === '/consumer' && eventOf(request).data.documentId === documentId
    );
    // No text of the draft in any field (the document id is random, so its characters are left out of the search).
    const sent = delivered.map((request) => {
      const { documentId: _id, ...data } = eventOf(request).data as Record<string, unknown>;
      return JSON.stringify(data);
    });
    expect(sent.join('\n')).not.toContain('v3');
  });

  it('sends the deletion of a page never published to the staff only', async () => {
    const created = await app.request().post(`${CM}/api::page.page`).set(admin).send({ title: 'Never out', slug: 'never-out' });
    const documentId = created.body.data.documentId as string;
    expect((await app.request().delete(`${CM}/api::page.page/${documentId}`).set(admin)).status).toBe(200);
    // A page published afterwards: once its event is recorded for the consumer, the deletion before it has been handled.
    const marker = await app.request().post(`${CM}/api::page.page`).set(admin).send({ title: 'Marker', slug: 'marker-1' });
    const markerId = marker.body.data.documentId as string;
    expect((await app.request().post(`${CM}/api::page.page/${markerId}/actions/publish`).set(admin).send({})).status).toBe(200);
    await eventually(async () => ((await recorded(consumerSub)).some((item) => item.documentId === markerId) ? true : undefined));
    expect(of(documentId)(await recorded(consumerSub))).toEqual([]);
    const staffSeen = await eventually(async () => {
      const items = of(documentId)(await recorded(staffSub));
      return items.some((item) => item.type === 'page.deleted') ? items : undefined;
    });
    expect(staffSeen.map((item) => item.type)).toEqual(['page.created', 'page.deleted']);
  });

  it('gives a consumer one page.published per document of a bulk publish, and nothing else', async () => {
    const ids: string[] = [];
    for (const title of ['Bulk A', 'Bulk B', 'Bulk C', 'Bulk D']) {
      const created = await app.request().post(`${CM}/api::page.page`).set(admin).send({ title });
      expect(created.status).toBe(201);
      ids.push(created.body.data.documentId as string);
    }
    const bulk = await app.request().post(`${CM}/api::page.page/actions/bulkPublish`).set(admin).send({ documentIds: ids });
    expect(bulk.status).toBe(200);
    const seen = await eventually(async () => {
      const items = (await recorded(consumerSub)).filter((item) => ids.includes(item.documentId));
      return items.length >= ids.length ? items : undefined;
    });
    expect(seen.map((item) => item.type)).toEqual(ids.map(() => 'page.published'));
    expect(new Set(seen.map((item) => item.documentId))).toEqual(new Set(ids));
    // Each once: the bulk's own and any later round agree.
    const marker = await app.request().post(`${CM}/api::page.page`).set(admin).send({ title: 'Marker two' });
    await app.request().post(`${CM}/api::page.page/${marker.body.data.documentId}/actions/publish`).set(admin).send({});
    await eventually(async () =>
      (await recorded(consumerSub)).some((item) => item.documentId === marker.body.data.documentId) ? true : undefined
    );
    expect((await recorded(consumerSub)).filter((item) => ids.includes(item.documentId))).toHaveLength(ids.length);
  });

  it('reads relations as the public does: a comment on a draft article carries no article', async () => {
    const draft = await app
      .request()
      .post('/api/articles')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { title: 'Secret draft body', slug: 'secret-draft', status: 'draft', body: 'The embargoed text' } });
    expect(draft.status).toBe(201);
    const comment = await app
      .request()
      .post('/api/comments')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { body: 'On a draft', article: draft.body.data.documentId } });
    expect(comment.status).toBe(201);
    const [delivery] = await waitForPosts(
      receiver,
      1,
      (request) => request.path === '/consumer' && eventOf(request).data.body === 'On a draft'
    );
    expect(eventOf(delivery).data.article).toBeNull();
    expect(delivery.body).not.toContain('embargoed');
    expect(posts(receiver).filter((request) => request.path === '/consumer' && eventOf(request).type === 'comment.created')).toHaveLength(
      1
    );
  });
});
