import { startApp, type TestApp } from '../../helpers/app';
import { adminAuth, createPluginReader, type AdminEditor } from '../../helpers/admin-users';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';
import { posts, subscribe, type CreatedSubscription } from '../../helpers/webhooks';

/**
 * The webhooks' admin-panel routes (/api-suite/webhooks/*): every consumer's subscriptions, test
 * sends, deliveries and their retry, re-enabling, and the event types, with Strapi's error body and
 * field-by-field validation messages. Who may call them: tests/api/platform/admin-permissions.test.ts.
 */
let app: TestApp;
let receiver: Receiver;
let owner: string;
let reader: AdminEditor;
let alice: TestUser;
let bob: TestUser;
let aliceSubscription: CreatedSubscription;

const as = adminAuth;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startApp();
  owner = (await adminSession(app)).token;
  reader = await createPluginReader(app);
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  aliceSubscription = await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice`, events: ['article.created'] });
  await subscribe(app, bob, { endpoint_url: `${receiver.url}/bob`, events: ['*'] });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('webhooks', () => {
  it("lists every consumer's subscriptions with their owner, status, failure count and last delivery", async () => {
    const response = await app.request().get('/api-suite/webhooks/subscriptions').set(as(owner));
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    const [bobs, alices] = response.body.data;
    expect(alices).toMatchObject({
      id: aliceSubscription.id,
      endpoint_url: `${receiver.url}/alice`,
      is_active: true,
      failure_count: 0,
      consumer: { id: alice.id, username: alice.username, email: alice.email, consumer_id: alice.consumer_id },
    });
    expect(alices).not.toHaveProperty('secret');
    expect(bobs.consumer.username).toBe(bob.username);
  });

  it('sends a test, records it with its attempt, and retries a delivery', async () => {
    const sent = await app.request().post(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}/test`).set(as(owner));
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ delivered: true, status_code: 200, delivery_id: expect.any(String) });
    const detail = await app.request().get(`/api-suite/webhooks/deliveries/${sent.body.data.delivery_id}`).set(as(reader.token));
    expect(detail.body.data).toMatchObject({
      event_type: 'webhook.test',
      status: 'succeeded',
      attempts: [{ attempt: 1, status_code: 200, error: null }],
    });
    const list = await app.request().get(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}/deliveries`).set(as(owner));
    expect(list.body.data.map((delivery: { id: string }) => delivery.id)).toContain(sent.body.data.delivery_id);

    const before = posts(receiver).length;
    const retried = await app.request().post(`/api-suite/webhooks/deliveries/${sent.body.data.delivery_id}/retry`).set(as(owner));
    expect(retried.status).toBe(202);
    expect(retried.body.data).toEqual({ delivery_id: sent.body.data.delivery_id, status: 'queued' });
    await eventually(async () => (posts(receiver).length > before ? true : undefined), 15_000, 'the retried delivery');
    const again = await eventually(async () => {
      const response = await app.request().get(`/api-suite/webhooks/deliveries/${sent.body.data.delivery_id}`).set(as(owner));
      return response.body.data.attempts.length === 2 ? response.body.data : undefined;
    });
    expect(again.attempts[1]).toMatchObject({ attempt: 2, status_code: 200 });
  });

  it('re-enables a disabled subscription with its failure count cleared', async () => {
    const row = await app.strapi.db.connection('api_suite_webhook_subscriptions').where({ uuid: aliceSubscription.id }).first();
    await app.strapi.db
      .connection('api_suite_webhook_subscriptions')
      .where({ id: row.id })
      .update({ is_active: false, failure_count: 100, disabled_at: new Date() });
    const retry = await app.request().get(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}/deliveries`).set(as(owner));
    const refused = await app.request().post(`/api-suite/webhooks/deliveries/${retry.body.data[0].id}/retry`).set(as(owner));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ status: 409, name: 'subscription_inactive' });

    const enabled = await app
      .request()
      .put(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}`)
      .set(as(owner))
      .send({ is_active: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ is_active: true, failure_count: 0, disabled_at: null });
  });

  it('edits event types; one switched off can no longer be subscribed to', async () => {
    const paidOrder = {
      id: 'o1',
      status: 'paid',
      total: 12,
      created_at: '2026-11-22T10:00:00.000Z',
      paid_at: '2026-11-22T10:01:00.000Z',
      payment_id: 'pi_1',
    };
    const all = await app.request().get('/api-suite/webhooks/event-types').set(as(owner));
    expect(all.body.data.find((type: { name: string }) => type.name === 'order.paid')).toMatchObject({
      is_active: true,
      example_payload: expect.any(Object),
    });

    const bad = await app.request().put('/api-suite/webhooks/event-types/order.paid').set(as(owner)).send({ is_active: 'no' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors).toEqual([{ path: ['is_active'], message: 'must be true or false', name: 'ValidationError' }]);
    expect((await app.request().put('/api-suite/webhooks/event-types/no.such').set(as(owner)).send({ is_active: false })).status).toBe(404);

    const off = await app
      .request()
      .put('/api-suite/webhooks/event-types/order.paid')
      .set(as(owner))
      .send({ is_active: false, description: 'Paid orders (off for now)', example_payload: paidOrder });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({
      name: 'order.paid',
      description: 'Paid orders (off for now)',
      example_payload: paidOrder,
      schema: expect.objectContaining({ type: 'object' }),
      audience: 'named',
      is_active: false,
      publishable: true,
    });
    // The example is what the catalog promises a payload looks like: one that does not fit the schema is refused, field by field.
    const misfit = await app
      .request()
      .put('/api-suite/webhooks/event-types/order.paid')
      .set(as(owner))
      .send({ example_payload: { id: 'o1', status: 'paid' } });
    expect(misfit.status).toBe(400);
    expect(misfit.body.error.details.errors).toEqual([
      { path: ['example_payload', 'total'], message: 'Invalid input: expected number, received undefined', name: 'ValidationError' },
      { path: ['example_payload', 'created_at'], message: 'Invalid input: expected string, received undefined', name: 'ValidationError' },
    ]);
    const refused = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice.jwt))
      .send({ endpoint_url: receiver.url, events: ['order.paid'] });
    expect(refused.status).toBe(422);
    expect(refused.body.invalid_events).toEqual(['order.paid']);
    await app.request().put('/api-suite/webhooks/event-types/order.paid').set(as(owner)).send({ is_active: true }).expect(200);
  });

  it('says which event types an administrator may publish by hand, and publishes those to every subscriber', async () => {
    const all = await app.request().get('/api-suite/webhooks/event-types').set(as(reader.token));
    expect(all.status).toBe(200);
    const types: Array<{ name: string; publishable: boolean; example_payload: Record<string, unknown> }> = all.body.data;
    // Only the events the plugin sends to the one consumer they are about are not.
    expect(types.filter((type) => !type.publishable).map((type) => type.name)).toEqual([
      'quota.threshold',
      'subscription.disabled',
      'subscription.failing',
    ]);
    expect(types.find((type) => type.name === 'article.created')?.publishable).toBe(true);
    expect(types.find((type) => type.name === 'webhook.test')?.publishable).toBe(true);

    const refused = await app
      .request()
      .post('/api-suite/webhooks/events')
      .set(as(owner))
      .send({ type: 'quota.threshold', payload: types.find((type) => type.name === 'quota.threshold')?.example_payload });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      status: 422,
      name: 'invalid_events',
      message: 'Only the plugin publishes quota.threshold, to the one consumer concerned',
    });
    // Reading the event types is not enough to publish.
    const example = types.find((type) => type.name === 'article.created')?.example_payload;
    expect(
      (await app.request().post('/api-suite/webhooks/events').set(as(reader.token)).send({ type: 'article.created', payload: example }))
        .status
    ).toBe(403);

    const before = posts(receiver).length;
    const published = await app
      .request()
      .post('/api-suite/webhooks/events')
      .set(as(owner))
      .send({ type: 'article.created', payload: example });
    expect(published.status).toBe(202);
    // Alice's subscription names article.created, Bob's takes every type.
    expect(published.body.data).toEqual({ event_id: expect.any(String), deliveries: 2 });
    await eventually(async () => (posts(receiver).length >= before + 2 ? true : undefined), 15_000, 'the published event');
  });
});
