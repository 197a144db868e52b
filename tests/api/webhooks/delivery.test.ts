import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../helpers/receiver';
import { startSmtp, type SmtpCapture } from '../../helpers/smtp';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { articleData, eventOf, orderData, posts, productData, subscribe, verify, waitForPosts } from '../../helpers/webhooks';
import { eventually, quietFor } from '../../helpers/wait';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';
import type { Job, JobsPort } from '../../../src/plugins/api-suite/server/src/jobs';
import type { DeliveryJobData } from '../../../src/plugins/api-suite/server/src/features/webhooks/delivery/types';
import { DELIVERY_QUEUE, packSends } from '../../../src/plugins/api-suite/server/src/features/webhooks/services/deliveries';

/**
 * Publishing and delivery (docs/webhooks.md): fan-out to matching subscriptions, the delivery
 * request, retries on a short schedule, manual retry, the 100-failure disable with one e-mail,
 * and the events the site publishes by itself.
 */
let app: TestApp;
let receiver: Receiver;
let smtp: SmtpCapture;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

/** While set, /flaky refuses each delivery's first attempt (by its webhook-id) and takes the retry. */
let flaky = false;
const refusedOnce = new Set<string>();
/** Paths the receiver treats specially; everything else answers 200. */
function reply(request: ReceivedRequest) {
  if (request.path.startsWith('/always-fail')) return { status: 500, body: 'down' };
  if (request.path.startsWith('/slow')) return { status: 200, delayMs: 300 };
  // By attempt, not by a window of time: on a loaded machine the first attempts came after a 1.5 s window had passed.
  const id = String(request.headers['webhook-id'] ?? '');
  if (request.path.startsWith('/flaky') && flaky && !refusedOnce.has(id)) {
    refusedOnce.add(id);
    return { status: 503, headers: { 'Retry-After': '1' } };
  }
  return { status: 200 };
}

beforeAll(async () => {
  smtp = await startSmtp();
  receiver = await startReceiver(reply);
  app = await startApp({
    env: {
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      // One endpoint may take every request slot here: the jobs-run-twice tests make a job's sends
      // wait for slots without any of them being put back in the queue (isolation.test.ts covers that).
      WEBHOOK_ENDPOINT_CONCURRENCY: '50',
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_IGNORE_TLS: 'true',
      EMAIL_FROM: 'hooks@example.test',
    },
  });
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await smtp?.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const publish = (body: unknown, user = admin) =>
  app
    .request()
    .post('/api/webhooks/events')
    .set(as(user))
    .send(body as object);
const onPath = (path: string) => (request: ReceivedRequest) =>
  request.path === path && request.headers['x-webhook-event'] !== 'webhook.test';
/** A publish's sends go out together: one to a wrong or a second subscription would arrive within this of the right ones. */
const FAN_OUT_WINDOW_MS = 300;
/** Longer than a retry of the 1 s schedule (WEBHOOK_RETRY_SCHEDULE below) with its jitter: a retry still due would come within it. */
const RETRY_WINDOW_MS = 1_500;

interface DocumentCalls {
  create(params: { data: Record<string, unknown> }): Promise<{ documentId: string }>;
  update(params: { documentId: string; data: Record<string, unknown> }): Promise<unknown>;
  delete(params: { documentId: string }): Promise<unknown>;
}

/** The message without quoted-printable soft line breaks, which may cut an id in two. */
function unfolded(raw: string): string {
  return raw.replace(/=\r?\n/g, '');
}

async function count(uid: string): Promise<number> {
  const table = app.strapi.db.metadata.get(uid as never).tableName;
  const [{ total }] = await app.strapi.db.connection(table).count({ total: '*' });
  return Number(total);
}

async function subscription(id: string, user: TestUser) {
  return (await app.request().get(`/api/webhooks/subscriptions/${id}`).set(as(user))).body;
}

describe('POST /api/webhooks/events', () => {
  it('delivers an event to each matching subscription once, signed, with the documented request', async () => {
    const exact = await subscribe(app, alice, {
      endpoint_url: `${receiver.url}/fan/exact`,
      events: ['order.created'],
      headers: { 'X-Shop': 'alice' },
    });
    const wildcard = await subscribe(app, bob, { endpoint_url: `${receiver.url}/fan/wildcard`, events: ['*'] });
    const both = await subscribe(app, bob, { endpoint_url: `${receiver.url}/fan/both`, events: ['order.created', '*'] });
    await subscribe(app, bob, { endpoint_url: `${receiver.url}/fan/other`, events: ['order.paid'] });
    const paused = await subscribe(app, bob, { endpoint_url: `${receiver.url}/fan/paused`, events: ['order.created'] });
    expect((await app.request().patch(`/api/webhooks/subscriptions/${paused.id}`).set(as(bob)).send({ is_active: false })).status).toBe(
      200
    );

    const payload = { id: 'ord_1', status: 'pending', total: 25, created_at: '2026-11-22T10:00:00.000Z' };
    const response = await publish({ type: 'order.created', payload });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ event_id: expect.stringMatching(UUID), deliveries: 3 });

    for (const [path, created] of [
      ['/fan/exact', exact],
      ['/fan/wildcard', wildcard],
      ['/fan/both', both],
    ] as const) {
      const [received] = await waitForPosts(receiver, 1, onPath(path));
      expect(verify(created.secret, received)).toEqual({ type: 'order.created', timestamp: expect.stringMatching(ISO), data: payload });
      expect(received.headers['x-webhook-event']).toBe('order.created');
      expect(received.headers['content-type']).toBe('application/json');
    }
    const [shop] = await waitForPosts(receiver, 1, onPath('/fan/exact'));
    expect(shop.headers['x-shop']).toBe('alice');
    const others = await quietFor(
      FAN_OUT_WINDOW_MS,
      () => ['/fan/both', '/fan/other', '/fan/paused'].map((path) => posts(receiver).filter(onPath(path)).length),
      'deliveries to /fan/both, /fan/other and /fan/paused'
    );
    expect(others).toEqual([1, 0, 0]);

    const list = await app.request().get(`/api/webhooks/subscriptions/${exact.id}/deliveries`).set(as(alice));
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    // Newest first: the order event, then the creation's test event.
    expect(list.body.data.map((delivery: { event_type: string }) => delivery.event_type)).toEqual(['order.created', 'webhook.test']);
    const [delivery] = list.body.data;
    expect(delivery).toEqual({
      id: shop.headers['webhook-id'],
      subscription_id: exact.id,
      event_id: response.body.event_id,
      event_type: 'order.created',
      payload,
      status: 'succeeded',
      attempts: 1,
      next_attempt_at: null,
      response_status: 200,
      created_at: expect.stringMatching(ISO),
      delivered_at: expect.stringMatching(ISO),
    });
    const filtered = await app.request().get(`/api/webhooks/subscriptions/${exact.id}/deliveries?status=failed`).set(as(alice));
    expect(filtered.body).toEqual({ data: [], meta: { page: 1, limit: 20, total: 0 } });
    const paged = await app.request().get(`/api/webhooks/subscriptions/${exact.id}/deliveries?page=2&limit=1`).set(as(alice));
    expect(paged.body.data.map((item: { event_type: string }) => item.event_type)).toEqual(['webhook.test']);
    expect(paged.body.meta).toEqual({ page: 2, limit: 1, total: 2 });
    expect((await app.request().get(`/api/webhooks/subscriptions/${exact.id}/deliveries?status=lost`).set(as(alice))).status).toBe(400);

    // Another consumer sees neither the list nor the delivery.
    expect((await app.request().get(`/api/webhooks/subscriptions/${exact.id}/deliveries`).set(as(bob))).status).toBe(404);
    const foreign = await app.request().get(`/api/webhooks/deliveries/${delivery.id}`).set(as(bob));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Delivery not found', code: 'not_found' });
  });

  it('publishes a batch and answers with every event id and the number of deliveries', async () => {
    await subscribe(app, alice, { endpoint_url: `${receiver.url}/batch`, events: ['order.updated'] });
    const events = Array.from({ length: 50 }, (_, i) => ({ type: 'order.updated', payload: orderData(`ord_${i}`, { status: 'paid' }) }));
    const response = await publish({ events });
    expect(response.status).toBe(202);
    expect(response.body.event_ids).toHaveLength(50);
    expect(new Set(response.body.event_ids).size).toBe(50);
    // /fan/wildcard and /fan/both from the first test take every type too.
    expect(response.body.deliveries).toBe(150);
    const received = await waitForPosts(receiver, 50, onPath('/batch'));
    expect(new Set(received.map((request) => eventOf(request).data.id)).size).toBe(50);
  });

  it('is for administrators only', async () => {
    const response = await publish({ type: 'order.created', payload: orderData(1) }, alice);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'Only administrators may publish events', code: 'forbidden' });
  });

  it.each([
    ['a payload that is not an object', { type: 'order.created', payload: [1, 2] }],
    ['a missing type', { payload: {} }],
    ['a type that is not a string', { type: 7, payload: {} }],
    ['more than 1,000 events', { events: Array.from({ length: 1001 }, () => ({ type: 'order.created', payload: {} })) }],
    ['10,000 events', { events: Array.from({ length: 10_000 }, () => ({ type: 'order.created', payload: {} })) }],
    ['an empty batch', { events: [] }],
    ['an unknown field', { type: 'order.created', payload: {}, when: 'now' }],
  ])('answers 400 to %s and stores nothing', async (_name, body) => {
    const before = await count(UIDS.webhookDelivery);
    const response = await publish(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), code: 'validation_error', details: expect.any(Array) });
    expect(await count(UIDS.webhookDelivery)).toBe(before);
  });

  it('answers 422 to unknown event types, listing them, and stores nothing', async () => {
    const before = await count(UIDS.webhookDelivery);
    const response = await publish({
      events: [
        { type: 'order.created', payload: orderData(1) },
        { type: 'order.teleported', payload: {} },
      ],
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: expect.any(String), code: 'invalid_events', invalid_events: ['order.teleported'] });
    expect(await count(UIDS.webhookDelivery)).toBe(before);
  });

  it("answers 422 to a payload that does not fit its event type's schema, naming each field, and stores nothing", async () => {
    const before = await count(UIDS.webhookDelivery);
    const single = await publish({ type: 'order.paid', payload: { id: 'x', status: 'lost', total: 3 } });
    expect(single.status).toBe(422);
    expect(single.body).toEqual({
      error:
        'payload.status: Invalid option: expected one of "pending"|"paid"|"shipped"|"delivered"|"cancelled"; payload.created_at: Invalid input: expected string, received undefined',
      code: 'invalid_payload',
      details: [
        { field: 'payload.status', message: 'Invalid option: expected one of "pending"|"paid"|"shipped"|"delivered"|"cancelled"' },
        { field: 'payload.created_at', message: 'Invalid input: expected string, received undefined' },
      ],
    });
    const batch = await publish({
      events: [
        { type: 'order.created', payload: orderData(1) },
        { type: 'product.created', payload: { ...productData(2), colour: 'blue' } },
      ],
    });
    expect(batch.status).toBe(422);
    expect(batch.body.details).toEqual([{ field: 'events.1.payload', message: 'Unrecognized key: "colour"' }]);
    expect(await count(UIDS.webhookDelivery)).toBe(before);
  });
});

describe('publishing at shutdown', () => {
  it('settles a publish handed over on the next turn of the event loop, as content changes committed just before are', async () => {
    const webhooks = app.strapi.plugin('api-suite').service('webhooks') as {
      publish(type: string, payload: Record<string, unknown>, options: { consumerId: string }): Promise<unknown>;
      settle(): Promise<void>;
    };
    await subscribe(app, admin, { endpoint_url: `${receiver.url}/settle`, events: ['order.created'] });
    // What platform's content changes do after a commit: hand the change over on the next turn.
    // (Order events go to the consumers they concern: here the subscriber.)
    setImmediate(() => void webhooks.publish('order.created', orderData('settled-at-shutdown'), { consumerId: admin.consumer_id }));
    await webhooks.settle();
    // Settled means stored: nothing of it is left for a database about to close.
    const table = app.strapi.db.metadata.get(UIDS.webhookDelivery as never).tableName;
    const rows = (await app.strapi.db.connection(table).select('payload').where({ event_type: 'order.created' })) as Array<{
      payload: unknown;
    }>;
    expect(rows.map((row) => JSON.stringify(row.payload))).toEqual(
      expect.arrayContaining([expect.stringContaining('settled-at-shutdown')])
    );
  });
});

describe('publishing for one consumer', () => {
  it("refuses to publish an event about one consumer's resources without naming who receives it", async () => {
    const webhooks = app.strapi.plugin('api-suite').service('webhooks') as {
      publish(type: string, payload: Record<string, unknown>): Promise<unknown>;
    };
    const before = await count(UIDS.webhookDelivery);
    const run = { run_id: 1, scraper_id: 1, status: 'completed', started_at: null, finished_at: null, items_collected: 0, error: null };
    await expect(webhooks.publish('run.completed', run)).rejects.toThrow('run.completed is published to the consumers it concerns only');
    expect(await count(UIDS.webhookDelivery)).toBe(before);
  });

  it("delivers events about a consumer's own resources to that consumer's subscriptions only", async () => {
    await subscribe(app, alice, { endpoint_url: `${receiver.url}/scoped/alice`, events: ['run.completed'] });
    await subscribe(app, bob, { endpoint_url: `${receiver.url}/scoped/bob`, events: ['run.completed'] });
    const webhooks = app.strapi.plugin('api-suite').service('webhooks');
    const published = await webhooks.publish(
      'run.completed',
      { run_id: 1, scraper_id: 1, status: 'completed', started_at: null, finished_at: null, items_collected: 0, error: null },
      { consumerId: alice.consumer_id }
    );
    // Alice's one subscription; not bob's, nor bob's wildcard subscriptions from the first test.
    expect(published.deliveries).toBe(1);
    await waitForPosts(receiver, 1, onPath('/scoped/alice'));
    const elsewhere = await quietFor(
      FAN_OUT_WINDOW_MS,
      () => [
        posts(receiver).filter(onPath('/scoped/bob')).length,
        posts(receiver).filter((request) => request.path.startsWith('/fan/') && request.headers['x-webhook-event'] === 'run.completed')
          .length,
      ],
      "run.completed deliveries to bob's subscriptions"
    );
    expect(elsewhere).toEqual([0, 0]);
  });
});

describe('retries', () => {
  it('gets everything to a receiver that fails for a while, by retries that keep the webhook-id', async () => {
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/flaky`, events: ['order.paid'] });
    await waitForPosts(receiver, 1, (request) => request.path === '/flaky');
    flaky = true;
    const response = await publish({
      events: Array.from({ length: 10 }, (_, i) => ({ type: 'order.paid', payload: orderData(`paid_${i}`, { status: 'paid' }) })),
    });
    expect(response.status).toBe(202);
    const list = async () =>
      (await app.request().get(`/api/webhooks/subscriptions/${created.id}/deliveries?limit=100`).set(as(alice))).body.data as Array<{
        id: string;
        status: string;
        attempts: number;
        event_type: string;
      }>;
    const settled = await eventually(
      async () => {
        const deliveries = (await list()).filter((delivery) => delivery.event_type === 'order.paid');
        return deliveries.length === 10 && deliveries.every((delivery) => delivery.status === 'succeeded') ? deliveries : undefined;
      },
      20_000,
      'every delivery succeeded'
    );
    expect(settled.every((delivery) => delivery.attempts >= 2)).toBe(true);
    for (const delivery of settled) {
      const tries = posts(receiver).filter((request) => request.headers['webhook-id'] === delivery.id);
      expect(tries.length).toBe(delivery.attempts);
      for (const attempt of tries) expect(verify(created.secret, attempt)).toBeTruthy();
    }
    const one = await app.request().get(`/api/webhooks/deliveries/${settled[0].id}`).set(as(alice));
    expect(one.body.attempts[0]).toEqual(expect.objectContaining({ attempt: 1, status_code: 503, error: 'HTTP 503' }));
    expect(one.body.attempts.at(-1)).toEqual(expect.objectContaining({ status_code: 200, error: null }));
    // The successes reset the count of consecutive failures.
    expect((await subscription(created.id, alice)).failure_count).toBe(0);
  });

  it('retries a delivery by hand: 202, sent again with the same webhook-id', async () => {
    const created = await subscribe(app, bob, { endpoint_url: `${receiver.url}/manual`, events: ['product.created'] });
    await publish({ type: 'product.created', payload: productData('p1') });
    const [first] = await waitForPosts(receiver, 1, onPath('/manual'));
    const id = String(first.headers['webhook-id']);
    const response = await app.request().post(`/api/webhooks/deliveries/${id}/retry`).set(as(bob));
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ delivery_id: id, status: 'queued' });
    const both = await waitForPosts(receiver, 2, onPath('/manual'));
    expect(both.map((request) => request.headers['webhook-id'])).toEqual([id, id]);
    expect(verify(created.secret, both[1])).toBeTruthy();
    const delivery = await eventually(async () => {
      const body = (await app.request().get(`/api/webhooks/deliveries/${id}`).set(as(bob))).body;
      return body.attempts.length === 2 ? body : undefined;
    });
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: [{ attempt: 1 }, { attempt: 2 }] });
    expect((await app.request().post(`/api/webhooks/deliveries/${id}/retry`).set(as(alice))).status).toBe(404);
  });
});

describe('jobs that run twice', () => {
  it('sends nothing again for a job whose sends are already done (a stalled job re-run, a swept delivery)', async () => {
    await subscribe(app, bob, { endpoint_url: `${receiver.url}/once`, events: ['order.updated'] });
    await publish({ type: 'order.updated', payload: orderData('o1') });
    const [first] = await waitForPosts(receiver, 1, onPath('/once'));
    const id = String(first.headers['webhook-id']);
    const deliveries = app.strapi.plugin('api-suite').service('webhook-deliveries') as { flush(): Promise<void> };
    await deliveries.flush();
    const row = await app.strapi.db
      .connection(app.strapi.db.metadata.get(UIDS.webhookDelivery as never).tableName)
      .where({ uuid: id })
      .first();

    // The same send enqueued again, as a crashed worker's stalled job or the sweep would.
    const jobs = (app.strapi.plugin('api-suite').service('platform') as { jobs(): JobsPort }).jobs();
    await jobs.enqueue(
      DELIVERY_QUEUE,
      'deliver',
      packSends([{ delivery: id, subscription: row.subscription_id, type: 'order.updated', body: first.body, attempt: 1 }])
    );
    await eventually(async () => {
      const counts = await jobs.counts(DELIVERY_QUEUE);
      return counts.waiting + counts.active + counts.delayed === 0 ? true : undefined;
    });
    await deliveries.flush();
    expect(posts(receiver).filter((request) => request.headers['webhook-id'] === id)).toHaveLength(1);
    const delivery = (await app.request().get(`/api/webhooks/deliveries/${id}`).set(as(bob))).body;
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: [{ attempt: 1, status_code: 200 }] });
  });

  it('looks in the database again when a fresh job is taken up after its worker died (its first run skips the look)', async () => {
    await subscribe(app, bob, { endpoint_url: `${receiver.url}/stalled`, events: ['order.updated'] });
    await publish({ type: 'order.updated', payload: orderData('o2') });
    const [first] = await waitForPosts(receiver, 1, onPath('/stalled'));
    const id = String(first.headers['webhook-id']);
    const deliveries = app.strapi.plugin('api-suite').service('webhook-deliveries') as {
      flush(): Promise<void>;
      handle(job: Job<DeliveryJobData>): Promise<void>;
    };
    await deliveries.flush();
    const row = await app.strapi.db
      .connection(app.strapi.db.metadata.get(UIDS.webhookDelivery as never).tableName)
      .where({ uuid: id })
      .first();

    // The publish job, as BullMQ hands it on when the worker running it stalled: started a second time.
    const data: DeliveryJobData = {
      fresh: true,
      ...packSends([{ delivery: id, subscription: row.subscription_id, type: 'order.updated', body: first.body, attempt: 1 }]),
    };
    await deliveries.handle({ id: 'batch-stalled', queue: DELIVERY_QUEUE, name: 'deliver', data, attempt: 1, attempts: 3, started: 2 });
    await deliveries.flush();
    expect(posts(receiver).filter((request) => request.headers['webhook-id'] === id)).toHaveLength(1);
  });

  it('sends nothing twice for a copy of a job whose sends still wait for a request slot', async () => {
    // 60 sends against 50 request slots and an endpoint that takes 300 ms: 10 of each job wait.
    await subscribe(app, bob, { endpoint_url: `${receiver.url}/slow`, events: ['order.updated'] });
    const published = await publish({
      events: Array.from({ length: 60 }, (_, i) => ({ type: 'order.updated', payload: orderData(`slow-${i}`) })),
    });
    expect(published.status).toBe(202);
    const firsts = await waitForPosts(receiver, 60, onPath('/slow'), 20_000);
    const deliveries = app.strapi.plugin('api-suite').service('webhook-deliveries') as {
      flush(): Promise<void>;
      handle(job: Job<DeliveryJobData>): Promise<void>;
    };
    await deliveries.flush();
    const table = app.strapi.db.metadata.get(UIDS.webhookDelivery as never).tableName;
    const ids = firsts.map((request) => String(request.headers['webhook-id']));
    const rows = (await app.strapi.db.connection(table).whereIn('uuid', ids)) as Array<{ uuid: string; subscription_id: number }>;
    expect(rows).toHaveLength(60);

    // A second attempt of each, as one job, handed to the worker twice at once: the job, and its copy run again as stalled.
    const bodies = new Map(firsts.map((request) => [String(request.headers['webhook-id']), request.body]));
    const data: DeliveryJobData = {
      fresh: true,
      ...packSends(
        rows.map((row) => ({
          delivery: row.uuid,
          subscription: row.subscription_id,
          type: 'order.updated',
          body: bodies.get(row.uuid) as string,
          attempt: 2,
        }))
      ),
    };
    const job = (id: string): Job<DeliveryJobData> => ({
      id,
      queue: DELIVERY_QUEUE,
      name: 'deliver',
      data,
      attempt: 1,
      attempts: 3,
      started: 1,
    });
    await Promise.all([deliveries.handle(job('slow-a')), deliveries.handle(job('slow-b'))]);
    await deliveries.flush();
    const sent = posts(receiver).filter((request) => ids.includes(String(request.headers['webhook-id'])));
    expect(sent).toHaveLength(120);
    expect(new Set(sent.map((request) => `${request.headers['webhook-id']}`)).size).toBe(60);
    const attempts = await app.request().get(`/api/webhooks/deliveries/${ids[59]}`).set(as(bob));
    expect(attempts.body.attempts.map((attempt: { attempt: number }) => attempt.attempt)).toEqual([1, 2]);
  });
});

describe('100 consecutive failures', () => {
  it('disables the subscription at exactly the 100th, cancels its retries, e-mails the owner once; PATCH re-enables', async () => {
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/always-fail`, events: ['order.paid', 'article.deleted'] });
    const mailsBefore = smtp.messages.length;
    // 120 events with 4 attempts each: far more than 100 attempts would be made if nothing stopped them.
    const response = await publish({
      events: Array.from({ length: 120 }, (_, i) => ({ type: 'article.deleted', payload: articleData(i) })),
    });
    expect(response.status).toBe(202);

    const disabled = await eventually(
      async () => {
        const view = await subscription(created.id, alice);
        return view.is_active ? undefined : view;
      },
      20_000,
      'the subscription is disabled'
    );
    expect(disabled).toMatchObject({ is_active: false, failure_count: 100, disabled_at: expect.stringMatching(ISO) });

    // The warning at the 20th failure (endpoint-health.test.ts) comes first.
    const mail = await eventually(
      () => smtp.messages.slice(mailsBefore).find((message) => message.subject === 'Your webhook subscription was disabled'),
      10_000,
      'the disable e-mail'
    );
    expect(mail.to).toEqual([alice.email]);
    expect(mail.subject).toBe('Your webhook subscription was disabled');
    expect(unfolded(mail.raw)).toContain(created.id);

    // Nothing is left to send, no further attempt is counted, and no second e-mail follows: once the
    // sends in flight at the 100th failure have ended and been recorded, nothing changes for longer than a retry would take.
    const jobs = (app.strapi.plugin('api-suite').service('platform') as { jobs(): JobsPort }).jobs();
    await eventually(
      async () => {
        const counts = await jobs.counts(DELIVERY_QUEUE);
        return counts.waiting + counts.active + counts.delayed === 0 ? true : undefined;
      },
      15_000,
      'the delivery queue drained'
    );
    await (app.strapi.plugin('api-suite').service('webhook-deliveries') as { flush(): Promise<void> }).flush();
    const total = async (status: string) =>
      (await app.request().get(`/api/webhooks/subscriptions/${created.id}/deliveries?limit=1&status=${status}`).set(as(alice))).body.meta
        .total as number;
    const settled = await quietFor(
      RETRY_WINDOW_MS,
      async () => ({
        retrying: await total('retrying'),
        pending: await total('pending'),
        failureCount: (await subscription(created.id, alice)).failure_count,
        mails: smtp.messages
          .slice(mailsBefore)
          .filter((message) => unfolded(message.raw).includes(created.id))
          .map((message) => message.subject),
        attempts: posts(receiver).filter((request) => request.path === '/always-fail').length,
      }),
      'the disabled subscription'
    );
    expect(settled).toMatchObject({
      retrying: 0,
      pending: 0,
      failureCount: 100,
      mails: ['Your webhook endpoint is failing', 'Your webhook subscription was disabled'],
    });
    expect(await total('cancelled')).toBeGreaterThan(0);

    // A disabled subscription gets no new deliveries and refuses manual retries.
    const later = await publish({ type: 'order.paid', payload: orderData('after', { status: 'paid' }) });
    const flakyAndOthers = later.body.deliveries;
    const anyDelivery = (await app.request().get(`/api/webhooks/subscriptions/${created.id}/deliveries?limit=1`).set(as(alice))).body
      .data[0];
    const refused = await app.request().post(`/api/webhooks/deliveries/${anyDelivery.id}/retry`).set(as(alice));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'subscription_inactive' });

    const enabled = await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ is_active: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ is_active: true, failure_count: 0, disabled_at: null });
    const again = await publish({ type: 'order.paid', payload: orderData('again', { status: 'paid' }) });
    expect(again.body.deliveries).toBe(flakyAndOthers + 1);
  });
});

describe('events the site publishes by itself', () => {
  it('announces article and product changes made through the document service', async () => {
    const created = await subscribe(app, bob, {
      endpoint_url: `${receiver.url}/content`,
      events: ['article.created', 'article.updated', 'article.published', 'article.deleted', 'product.created', 'product.updated'],
    });
    // `status` and `stock` are left out of the document service's generated input types; the calls are untyped for that.
    const articles = app.strapi.documents('api::article.article' as never) as unknown as DocumentCalls;
    const products = app.strapi.documents('api::product.product' as never) as unknown as DocumentCalls;
    const article = await articles.create({ data: { title: 'Webhooks at work', slug: 'webhooks-at-work', status: 'draft' } });
    await articles.update({ documentId: article.documentId, data: { status: 'published' } });
    await articles.delete({ documentId: article.documentId });
    const product = await products.create({ data: { name: 'Signed mug', slug: 'signed-mug', price: 9.5, stock: 3, published: true } });
    await products.update({ documentId: product.documentId, data: { stock: 2 } });

    const received = await waitForPosts(receiver, 6, onPath('/content'));
    const events = received.map((request) => ({ ...eventOf(request), verified: Boolean(verify(created.secret, request)) }));
    const types = events.map((event) => event.type);
    expect([...types].sort()).toEqual([
      'article.created',
      'article.deleted',
      'article.published',
      'article.updated',
      'product.created',
      'product.updated',
    ]);
    const published = events.find((event) => event.type === 'article.published');
    expect(published?.data).toEqual({
      id: expect.stringMatching(UUID),
      title: 'Webhooks at work',
      slug: 'webhooks-at-work',
      status: 'published',
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(events.find((event) => event.type === 'article.deleted')?.data.id).toBe(published?.data.id);
    expect(events.find((event) => event.type === 'product.updated')?.data).toEqual({
      id: product.documentId,
      name: 'Signed mug',
      slug: 'signed-mug',
      price: 9.5,
      stock: 2,
      published: true,
      deleted: false,
    });
    expect(events.every((event) => event.verified)).toBe(true);
  });
});
