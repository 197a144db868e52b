import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../helpers/receiver';
import { startSmtp, type SmtpCapture } from '../../helpers/smtp';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, orderData, posts, subscribe, waitForPosts, type CreatedSubscription } from '../../helpers/webhooks';
import { eventually, quietFor } from '../../helpers/wait';

/**
 * Endpoint health (docs/webhooks.md#endpoint-health): at WEBHOOK_FAILING_AFTER (20) failures in a
 * row the owner gets one e-mail and one `subscription.failing` on their other subscriptions, once
 * a streak; at 100 `subscription.disabled` goes the same way beside the disable e-mail. The failing
 * subscription itself and every other consumer's subscriptions, `*` or not, get neither.
 */
let app: TestApp;
let receiver: Receiver;
let smtp: SmtpCapture;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let down: CreatedSubscription;

/** Longer than a publish takes to reach a receiver here: a second warning would arrive within it. */
const QUIET_MS = 2_000;
const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const health = (request: ReceivedRequest) => String(request.headers['x-webhook-event']).startsWith('subscription.');
const healthTo = (path: string) =>
  posts(receiver)
    .filter((request) => request.path === path && health(request))
    .map((request) => ({ type: eventOf(request).type, data: eventOf(request).data }));
const failureCount = async () =>
  (await app.request().get(`/api/webhooks/subscriptions/${down.id}`).set(as(alice))).body.failure_count as number;
const publishOrders = async (count: number, prefix: string) => {
  const events = Array.from({ length: count }, (_, i) => ({
    type: 'order.paid',
    payload: orderData(`${prefix}-${i}`, { status: 'paid' }),
  }));
  const response = await app.request().post('/api/webhooks/events').set(as(admin)).send({ events });
  expect(response.status).toBe(202);
};
const subjects = () => smtp.messages.filter((mail) => mail.to.includes(alice.email)).map((mail) => mail.subject);

beforeAll(async () => {
  smtp = await startSmtp();
  receiver = await startReceiver((request) => (request.path === '/down' ? { status: 500, body: 'down' } : { status: 200 }));
  // No retries: each event is one attempt, so the count of failures is the count of events sent.
  app = await startApp({
    env: {
      WEBHOOK_RETRY_SCHEDULE: '',
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_IGNORE_TLS: 'true',
      EMAIL_FROM: 'hooks@example.test',
    },
  });
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
  // `*` on the failing one too: it would receive its own warning if the owner's other subscriptions were not the only audience.
  down = await subscribe(app, alice, { endpoint_url: `${receiver.url}/down`, events: ['*'] });
  await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice-ops`, events: ['subscription.*'] });
  await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice-orders`, events: ['order.paid'] });
  await subscribe(app, bob, { endpoint_url: `${receiver.url}/bob`, events: ['*'] });
  await subscribe(app, admin, { endpoint_url: `${receiver.url}/admin`, events: ['*'] });
  // The test event sent at creation was the first failure.
  await eventually(async () => ((await failureCount()) === 1 ? true : undefined), 10_000, 'the test event failed');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await smtp?.close();
});

describe('a failing endpoint', () => {
  it('warns at the 20th failure in a row, once: one subscription.failing to the owner’s other subscription, one e-mail', async () => {
    await publishOrders(30, 'a');
    // Generous bounds: on a machine loaded by other test files the failing answers can look slow, and a slow
    // endpoint's sends wait in the queue (docs/webhooks.md#a-fair-share-per-endpoint): 3 s quiet, over 20 s in CI.
    await eventually(async () => ((await failureCount()) === 31 ? true : undefined), 60_000, '31 failures');
    await waitForPosts(receiver, 1, (request) => request.path === '/alice-ops' && health(request));
    const settled = await quietFor(
      QUIET_MS,
      () => ({
        ops: healthTo('/alice-ops'),
        down: healthTo('/down'),
        orders: healthTo('/alice-orders'),
        bob: healthTo('/bob'),
        admin: healthTo('/admin'),
      }),
      'health events'
    );
    expect(settled).toEqual({
      ops: [
        {
          type: 'subscription.failing',
          data: { subscription_id: down.id, endpoint_url: `${receiver.url}/down`, failure_count: 20, last_error: 'HTTP 500' },
        },
      ],
      down: [],
      orders: [],
      bob: [],
      admin: [],
    });
    await eventually(() => (subjects().length >= 1 ? true : undefined), 10_000, 'the e-mail');
    expect(subjects()).toEqual(['Your webhook endpoint is failing']);
    const mail = smtp.messages.find((message) => message.subject === 'Your webhook endpoint is failing');
    expect(mail?.raw.replace(/=\r?\n/g, '')).toContain('has failed 20 deliveries in a row');
  });

  it('says subscription.disabled at the 100th the same way, beside the disable e-mail; no second warning', async () => {
    await publishOrders(69, 'b');
    await eventually(
      async () => {
        const view = (await app.request().get(`/api/webhooks/subscriptions/${down.id}`).set(as(alice))).body;
        return view.is_active === false ? view : undefined;
      },
      60_000,
      'the subscription is disabled'
    );
    await waitForPosts(receiver, 2, (request) => request.path === '/alice-ops' && health(request));
    await eventually(() => (subjects().length >= 2 ? true : undefined), 10_000, 'the disable e-mail');
    const settled = await quietFor(
      QUIET_MS,
      () => ({
        ops: healthTo('/alice-ops').map((event) => event.type),
        bob: healthTo('/bob'),
        admin: healthTo('/admin'),
        mails: subjects(),
      }),
      'health events'
    );
    expect(settled).toEqual({
      ops: ['subscription.failing', 'subscription.disabled'],
      bob: [],
      admin: [],
      mails: ['Your webhook endpoint is failing', 'Your webhook subscription was disabled'],
    });
    expect(healthTo('/alice-ops')[1].data).toEqual({
      subscription_id: down.id,
      endpoint_url: `${receiver.url}/down`,
      failure_count: 100,
      last_error: 'HTTP 500',
    });
  });

  it('warns again in a new streak, once re-enabled', async () => {
    const enabled = await app.request().patch(`/api/webhooks/subscriptions/${down.id}`).set(as(alice)).send({ is_active: true });
    expect(enabled.status).toBe(200);
    await publishOrders(20, 'c');
    await waitForPosts(receiver, 3, (request) => request.path === '/alice-ops' && health(request));
    const settled = await quietFor(QUIET_MS, () => healthTo('/alice-ops').map((event) => event.type), 'health events');
    expect(settled).toEqual(['subscription.failing', 'subscription.disabled', 'subscription.failing']);
    expect(healthTo('/alice-ops')[2].data).toMatchObject({ failure_count: 20 });
    expect(healthTo('/bob')).toEqual([]);
  });
});

describe('publishing them by hand', () => {
  it('is refused to administrators', async () => {
    const response = await app
      .request()
      .post('/api/webhooks/events')
      .set(as(admin))
      .send({
        type: 'subscription.failing',
        payload: { subscription_id: down.id, endpoint_url: 'https://example.com/x', failure_count: 20, last_error: 'HTTP 500' },
      });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'Only the plugin publishes subscription.failing, to the one consumer concerned',
      code: 'invalid_events',
      invalid_events: ['subscription.failing'],
    });
  });
});
