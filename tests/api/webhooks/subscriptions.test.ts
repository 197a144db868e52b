import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, orderData, posts, subscribe, verify, waitForPosts } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/** Webhook subscriptions (docs/webhooks.md): create, list, read, change, delete, test, rotate. */
let app: TestApp;
let receiver: Receiver;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  app = await startApp();
  receiver = await startReceiver();
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });

async function tableRows(uid: string): Promise<Array<Record<string, unknown>>> {
  const table = app.strapi.db.metadata.get(uid as never).tableName;
  return app.strapi.db.connection(table).select('*');
}

describe('POST /api/webhooks/subscriptions', () => {
  it('creates a subscription, shows its secret once, and sends a signed test event', async () => {
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice))
      .send({ endpoint_url: `${receiver.url}/hooks/a`, events: ['order.created', 'order.updated'], description: 'orders' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      endpoint_url: `${receiver.url}/hooks/a`,
      events: ['order.created', 'order.updated'],
      secret: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      created_at: expect.stringMatching(ISO),
      test_sent: true,
    });

    const [test] = await waitForPosts(receiver, 1, (request) => request.path === '/hooks/a');
    expect(test.headers['content-type']).toBe('application/json');
    expect(test.headers['x-webhook-event']).toBe('webhook.test');
    expect(test.headers['webhook-id']).toMatch(UUID);
    expect(Number(test.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(verify(response.body.secret, test)).toEqual({
      type: 'webhook.test',
      timestamp: expect.stringMatching(ISO),
      data: { subscription_id: response.body.id, message: expect.any(String) },
    });
  });

  it('stores the secret encrypted, never in clear', async () => {
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/hooks/secret`, events: ['*'] });
    const rows = await tableRows(UIDS.webhookSubscription);
    const row = rows.find((candidate) => candidate.uuid === created.id);
    expect(row).toBeDefined();
    expect(JSON.stringify(rows)).not.toContain(created.secret);
    expect(String(row?.secret)).toMatch(/^v1:/);
  });

  it.each([
    ['no endpoint_url', { events: ['order.created'] }, 'endpoint_url'],
    ['an endpoint_url that is not a URL', { endpoint_url: 'not a url', events: ['order.created'] }, 'endpoint_url'],
    ['an ftp endpoint_url', { endpoint_url: 'ftp://example.com/x', events: ['order.created'] }, 'endpoint_url'],
    ['no events', { endpoint_url: 'https://example.com/x', events: [] }, 'events'],
    ['events as a string', { endpoint_url: 'https://example.com/x', events: 'order.created' }, 'events'],
    ['a number among events', { endpoint_url: 'https://example.com/x', events: [42] }, 'events.0'],
    ['10,000 events', { endpoint_url: 'https://example.com/x', events: Array.from({ length: 10_000 }, (_, i) => `order.e${i}`) }, 'events'],
    ['headers as an array', { endpoint_url: 'https://example.com/x', events: ['*'], headers: ['x'] }, 'headers'],
    [
      '5,000 headers',
      {
        endpoint_url: 'https://example.com/x',
        events: ['*'],
        headers: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`x-h${i}`, 'v'])),
      },
      'headers',
    ],
    [
      'a signature header',
      { endpoint_url: 'https://example.com/x', events: ['*'], headers: { 'webhook-signature': 'v1,forged' } },
      'headers',
    ],
    [
      'a header value with a line break',
      { endpoint_url: 'https://example.com/x', events: ['*'], headers: { 'x-ok': 'line\r\nbreak' } },
      'headers.x-ok',
    ],
    ['timeout_seconds of 31', { endpoint_url: 'https://example.com/x', events: ['*'], timeout_seconds: 31 }, 'timeout_seconds'],
    ['a description that is a number', { endpoint_url: 'https://example.com/x', events: ['*'], description: 7 }, 'description'],
    ['a secret chosen by the caller', { endpoint_url: 'https://example.com/x', events: ['*'], secret: 'mine' }, '(body)'],
  ] as Array<[string, Record<string, unknown>, string]>)('answers 400 to %s and stores nothing', async (_label, body, field) => {
    const before = (await tableRows(UIDS.webhookSubscription)).length;
    const response = await app.request().post('/api/webhooks/subscriptions').set(as(alice)).send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: expect.any(String),
      code: 'validation_error',
      details: expect.arrayContaining([expect.objectContaining({ field })]),
    });
    expect((await tableRows(UIDS.webhookSubscription)).length).toBe(before);
  });

  it('answers 400 to a body that is not JSON, in the webhooks error shape', async () => {
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice))
      .set('Content-Type', 'application/json')
      .send('{"endpoint_url":');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), code: 'invalid_body' });
  });

  it('answers 422 with invalid_events for unknown or inactive event types', async () => {
    const before = (await tableRows(UIDS.webhookSubscription)).length;
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice))
      .send({ endpoint_url: 'https://example.com/x', events: ['order.created', 'order.exploded', 'nope'] });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: expect.any(String), code: 'invalid_events', invalid_events: ['order.exploded', 'nope'] });
    expect((await tableRows(UIDS.webhookSubscription)).length).toBe(before);
  });

  it('needs a credential', async () => {
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .send({ endpoint_url: 'https://example.com/x', events: ['*'] });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: 'api_key_required', message: expect.any(String) } });
  });
});

describe('reading and changing subscriptions', () => {
  let mine: string;

  beforeAll(async () => {
    mine = (
      await subscribe(app, bob, { endpoint_url: `${receiver.url}/hooks/bob`, events: ['article.created'], headers: { 'X-Tenant': 'bob' } })
    ).id;
  });

  it("lists only the caller's own subscriptions, with paging, and never a secret", async () => {
    const response = await app.request().get('/api/webhooks/subscriptions?page=1&limit=10').set(as(bob));
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ page: 1, limit: 10, total: 1 });
    expect(response.body.data).toEqual([
      {
        id: mine,
        consumer_id: bob.consumer_id,
        endpoint_url: `${receiver.url}/hooks/bob`,
        description: '',
        events: ['article.created'],
        is_active: true,
        headers: { 'X-Tenant': 'bob' },
        timeout_seconds: 10,
        rate_limit: null,
        filter: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        // The creation's test event may or may not have arrived yet.
        last_delivery_at: response.body.data[0].last_delivery_at === null ? null : expect.stringMatching(ISO),
        failure_count: 0,
        disabled_at: null,
        secret_rotated_at: null,
        rotation_recommended: false,
      },
    ]);
    expect(JSON.stringify(response.body)).not.toMatch(/secret"/);
  });

  it('answers 404 to another consumer, 200 to an administrator', async () => {
    expect((await app.request().get(`/api/webhooks/subscriptions/${mine}`).set(as(alice))).status).toBe(404);
    expect((await app.request().patch(`/api/webhooks/subscriptions/${mine}`).set(as(alice)).send({ description: 'x' })).status).toBe(404);
    expect((await app.request().delete(`/api/webhooks/subscriptions/${mine}`).set(as(alice))).status).toBe(404);
    expect((await app.request().post(`/api/webhooks/subscriptions/${mine}/test`).set(as(alice))).status).toBe(404);
    expect((await app.request().post(`/api/webhooks/subscriptions/${mine}/rotate-secret`).set(as(alice))).status).toBe(404);
    const missing = await app.request().get('/api/webhooks/subscriptions/not-a-uuid').set(as(alice));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Subscription not found', code: 'not_found' });
    const adminView = await app.request().get(`/api/webhooks/subscriptions/${mine}`).set(as(admin));
    expect(adminView.status).toBe(200);
    expect(adminView.body.id).toBe(mine);
  });

  it('updates the fields a subscription may change, and validates them', async () => {
    const response = await app
      .request()
      .patch(`/api/webhooks/subscriptions/${mine}`)
      .set(as(bob))
      .send({
        events: ['article.created', 'article.deleted'],
        description: 'articles',
        timeout_seconds: 5,
        headers: { 'X-Tenant': 'bob2' },
      });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: mine,
      events: ['article.created', 'article.deleted'],
      description: 'articles',
      timeout_seconds: 5,
      headers: { 'X-Tenant': 'bob2' },
    });
    const bad = await app.request().patch(`/api/webhooks/subscriptions/${mine}`).set(as(bob)).send({ timeout_seconds: 0 });
    expect(bad.status).toBe(400);
    const unknown = await app
      .request()
      .patch(`/api/webhooks/subscriptions/${mine}`)
      .set(as(bob))
      .send({ events: ['x.y'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ error: expect.any(String), code: 'invalid_events', invalid_events: ['x.y'] });
    const empty = await app.request().patch(`/api/webhooks/subscriptions/${mine}`).set(as(bob)).send({});
    expect(empty.status).toBe(400);
    const after = await app.request().get(`/api/webhooks/subscriptions/${mine}`).set(as(bob));
    expect(after.body.timeout_seconds).toBe(5);
  });

  it('sends a test event now and records it', async () => {
    const response = await app.request().post(`/api/webhooks/subscriptions/${mine}/test`).set(as(bob));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      delivery_id: expect.stringMatching(UUID),
      delivered: true,
      status_code: 200,
      duration_ms: expect.any(Number),
    });
    const received = posts(receiver).find((request) => request.headers['webhook-id'] === response.body.delivery_id);
    expect(received?.headers['x-tenant']).toBe('bob2');
    const delivery = await app.request().get(`/api/webhooks/deliveries/${response.body.delivery_id}`).set(as(bob));
    expect(delivery.status).toBe(200);
    expect(delivery.body).toEqual({
      id: response.body.delivery_id,
      subscription_id: mine,
      event_id: expect.stringMatching(UUID),
      event_type: 'webhook.test',
      payload: { subscription_id: mine, message: expect.any(String) },
      status: 'succeeded',
      next_attempt_at: null,
      response_status: 200,
      created_at: expect.stringMatching(ISO),
      delivered_at: expect.stringMatching(ISO),
      attempts: [
        { attempt: 1, at: expect.stringMatching(ISO), status_code: 200, duration_ms: expect.any(Number), error: null, response_body: null },
      ],
    });
    const subscription = await app.request().get(`/api/webhooks/subscriptions/${mine}`).set(as(bob));
    expect(subscription.body.failure_count).toBe(0);
    expect(subscription.body.last_delivery_at).toMatch(ISO);
  });

  it('reports a failed test honestly', async () => {
    receiver.setReply((request) => (request.path === '/hooks/bob' ? { status: 500, body: 'boom' } : { status: 200 }));
    try {
      const response = await app.request().post(`/api/webhooks/subscriptions/${mine}/test`).set(as(bob));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ delivered: false, status_code: 500 });
      const delivery = await app.request().get(`/api/webhooks/deliveries/${response.body.delivery_id}`).set(as(bob));
      expect(delivery.body).toMatchObject({ status: 'failed', response_status: 500, next_attempt_at: null, delivered_at: null });
      expect(delivery.body.attempts).toEqual([
        expect.objectContaining({ attempt: 1, status_code: 500, error: 'HTTP 500', response_body: 'boom' }),
      ]);
      const subscription = await app.request().get(`/api/webhooks/subscriptions/${mine}`).set(as(bob));
      expect(subscription.body.failure_count).toBe(1);
    } finally {
      receiver.setReply(() => ({ status: 200 }));
    }
  });

  it('rotates the secret: both signatures for ten minutes, new first', async () => {
    const created = await subscribe(app, bob, { endpoint_url: `${receiver.url}/hooks/rotate`, events: ['order.paid'] });
    const response = await app.request().post(`/api/webhooks/subscriptions/${created.id}/rotate-secret`).set(as(bob));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      secret: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      valid_until: expect.stringMatching(ISO),
      note: expect.any(String),
    });
    expect(Math.abs(new Date(response.body.valid_until).getTime() - (Date.now() + 600_000))).toBeLessThan(5_000);
    const test = await app.request().post(`/api/webhooks/subscriptions/${created.id}/test`).set(as(bob));
    const received = posts(receiver).find((request) => request.headers['webhook-id'] === test.body.delivery_id);
    if (!received) throw new Error('the test delivery did not arrive');
    const signatures = String(received.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    // Each secret verifies on its own, the new one matching the first signature.
    expect(eventOf(received).type).toBe('webhook.test');
    expect(verify(response.body.secret, received)).toBeTruthy();
    expect(verify(created.secret, received)).toBeTruthy();
    expect(
      verify(response.body.secret, { ...received, headers: { ...received.headers, 'webhook-signature': signatures[0] } })
    ).toBeTruthy();
    const view = await app.request().get(`/api/webhooks/subscriptions/${created.id}`).set(as(bob));
    expect(view.body.secret_rotated_at).toMatch(ISO);

    // Eleven minutes later (the rotation moved back in time): the new signature only.
    const table = app.strapi.db.metadata.get(UIDS.webhookSubscription as never).tableName;
    await app.strapi.db
      .connection(table)
      .where({ uuid: created.id })
      .update({ secret_rotated_at: new Date(Date.now() - 11 * 60_000) });
    await app.strapi.plugin('api-suite').service('webhook-subscriptions').forget('*');
    const later = await app.request().post(`/api/webhooks/subscriptions/${created.id}/test`).set(as(bob));
    const after = posts(receiver).find((request) => request.headers['webhook-id'] === later.body.delivery_id);
    if (!after) throw new Error('the later test delivery did not arrive');
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(response.body.secret, after)).toBeTruthy();
    expect(() => verify(created.secret, after)).toThrow();
  });

  it('deletes a subscription with its deliveries', async () => {
    const created = await subscribe(app, bob, { endpoint_url: `${receiver.url}/hooks/delete`, events: ['order.paid'] });
    const response = await app.request().delete(`/api/webhooks/subscriptions/${created.id}`).set(as(bob));
    expect(response.status).toBe(204);
    expect((await app.request().get(`/api/webhooks/subscriptions/${created.id}`).set(as(bob))).status).toBe(404);
    const row = (await tableRows(UIDS.webhookSubscription)).find((candidate) => candidate.uuid === created.id);
    expect(row).toBeUndefined();
  });
});

describe('GET /api/webhooks/event-types', () => {
  it('lists the active event types with descriptions and example payloads', async () => {
    const response = await app.request().get('/api/webhooks/event-types').set(as(alice));
    expect(response.status).toBe(200);
    const names = response.body.data.map((type: { name: string }) => type.name);
    for (const name of [
      'order.created',
      'order.updated',
      'order.paid',
      'article.created',
      'article.updated',
      'article.published',
      'article.deleted',
      'product.created',
      'product.updated',
      'run.started',
      'run.completed',
      'run.failed',
      'run.stopped',
      'results.created',
      'results.changed',
      'quota.threshold',
      'subscription.failing',
      'subscription.disabled',
      'webhook.test',
    ]) {
      expect(names).toContain(name);
    }
    expect(response.body.data[0]).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      example_payload: expect.any(Object),
      schema: expect.any(Object),
      audience: expect.stringMatching(/^(everyone|named|consumer|staff)$/),
    });
    expect(response.body.data.find((type: { name: string }) => type.name === 'results.changed')?.example_payload).toEqual({
      run_id: 42,
      scraper_id: 7,
      new: 3,
      changed: 1,
      removed: 2,
    });
  });

  it('gives each type the JSON Schema (draft 2020-12) of its data, which its example fits', async () => {
    const response = await app.request().get('/api/webhooks/event-types').set(as(alice));
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    for (const type of response.body.data as Array<{ name: string; schema: Record<string, unknown>; example_payload: unknown }>) {
      expect(type.schema).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        title: `${type.name} data`,
        additionalProperties: false,
      });
      const validate = ajv.compile(type.schema);
      expect({ type: type.name, valid: validate(type.example_payload), errors: validate.errors ?? null }).toEqual({
        type: type.name,
        valid: true,
        errors: null,
      });
    }
    const order = (response.body.data as Array<{ name: string; schema: { properties: Record<string, unknown>; required: string[] } }>).find(
      (type) => type.name === 'order.paid'
    );
    // An example an earlier release stored that no longer fits (run events once had `items`) is replaced at boot; one that fits is kept.
    const table = app.strapi.db.metadata.get(UIDS.webhookEventType as never).tableName;
    await app.strapi.db
      .connection(table)
      .where({ name: 'run.completed' })
      .update({ example_payload: JSON.stringify({ run_id: 'r1', status: 'completed', items: 120 }) });
    const edited = { id: 'kept', status: 'paid', total: 1, created_at: null };
    await app.strapi.db
      .connection(table)
      .where({ name: 'order.paid' })
      .update({ example_payload: JSON.stringify(edited) });
    await (app.strapi.plugin('api-suite').service('webhook-event-types') as { ensureDefaults(): Promise<number> }).ensureDefaults();
    const after = (await app.request().get('/api/webhooks/event-types').set(as(alice))).body.data as Array<{
      name: string;
      example_payload: Record<string, unknown>;
    }>;
    expect(after.find((type) => type.name === 'run.completed')?.example_payload).toMatchObject({
      run_id: expect.any(Number),
      items_collected: expect.any(Number),
    });
    expect(after.find((type) => type.name === 'order.paid')?.example_payload).toEqual(edited);
    expect(order?.schema.required).toEqual(['id', 'status', 'total', 'created_at']);
    expect(Object.keys(order?.schema.properties ?? {})).toEqual(['id', 'status', 'total', 'created_at', 'paid_at', 'payment_id']);
  });
});

describe('the admin panel', () => {
  it('gives a subscription created by an editor its identity, an encrypted secret and its topics', async () => {
    const session = await adminSession(app);
    const response = await app
      .request()
      .post('/content-manager/collection-types/plugin::api-suite.webhook-subscription')
      .set('Authorization', `Bearer ${session.token}`)
      .send({
        consumer_id: alice.consumer_id,
        endpoint_url: `${receiver.url}/hooks/editor`,
        events: ['order.paid'],
        is_active: true,
        timeout_seconds: 10,
      });
    expect(response.status).toBe(201);
    const row = (await tableRows(UIDS.webhookSubscription)).find((candidate) => candidate.endpoint_url === `${receiver.url}/hooks/editor`);
    expect(row?.uuid).toMatch(UUID);
    expect(String(row?.secret)).toMatch(/^v1:/);
    // Topics are rewritten once the editor's transaction has committed, a moment after the answer.
    const topicsOf = async () =>
      (await tableRows(UIDS.webhookTopic)).filter((topic) => topic.subscription_id === row?.id).map((topic) => topic.event_type);
    await eventually(async () => ((await topicsOf()).length > 0 ? true : undefined), 5_000, 'topics written');
    expect(await topicsOf()).toEqual(['order.paid']);
    // It is alice's like any other, and receives what it subscribes to.
    const view = await app.request().get(`/api/webhooks/subscriptions/${row?.uuid}`).set(as(alice));
    expect(view.body).toMatchObject({ id: row?.uuid, events: ['order.paid'], is_active: true });
    const published = await app
      .request()
      .post('/api/webhooks/events')
      .set(as(admin))
      .send({ type: 'order.paid', payload: orderData('editor', { status: 'paid' }) });
    expect(published.body.deliveries).toBeGreaterThanOrEqual(1);
    await waitForPosts(receiver, 1, (request) => request.path === '/hooks/editor');

    // An editor's change of events moves the topics with it.
    const edited = await app
      .request()
      .put(`/content-manager/collection-types/plugin::api-suite.webhook-subscription/${response.body.data.documentId}`)
      .set('Authorization', `Bearer ${session.token}`)
      .send({ events: ['order.created'] });
    expect(edited.status).toBe(200);
    await eventually(async () => ((await topicsOf())[0] === 'order.created' ? true : undefined), 5_000, 'topics rewritten');
    expect(await topicsOf()).toEqual(['order.created']);
  });

  it("keeps an editor's hands off the identity and secrets, and re-enabling starts the count of failures afresh", async () => {
    const session = await adminSession(app);
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/hooks/editor-reenabled`, events: ['order.paid'] });
    const before = (await tableRows(UIDS.webhookSubscription)).find((candidate) => candidate.uuid === created.id);
    // Disabled after 100 failures in a row, as the delivery worker leaves it.
    const table = app.strapi.db.metadata.get(UIDS.webhookSubscription as never).tableName;
    await app.strapi.db
      .connection(table)
      .where({ uuid: created.id })
      .update({ is_active: false, failure_count: 100, disabled_at: new Date() });
    await app.strapi.plugin('api-suite').service('webhook-subscriptions').forget('*');

    const edited = await app
      .request()
      .put(`/content-manager/collection-types/plugin::api-suite.webhook-subscription/${before?.document_id}`)
      .set('Authorization', `Bearer ${session.token}`)
      .send({ is_active: true, uuid: 'not-its-own', secret: 'not-its-own', secret_old: 'not-its-own' });
    expect(edited.status).toBe(200);
    const after = (await tableRows(UIDS.webhookSubscription)).find((candidate) => candidate.id === before?.id);
    expect([after?.uuid, after?.secret, after?.secret_old]).toEqual([created.id, before?.secret, before?.secret_old]);
    // As after PATCH {"is_active": true}: the next failure is the first of a new streak, not the 101st.
    const view = await app.request().get(`/api/webhooks/subscriptions/${created.id}`).set(as(alice));
    expect(view.body).toMatchObject({ is_active: true, failure_count: 0, disabled_at: null });
  });
});
