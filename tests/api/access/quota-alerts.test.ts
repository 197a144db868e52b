import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { createPlan, issueKey, type IssuedKey } from '../../helpers/keys';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../helpers/receiver';
import { redisUrl } from '../../helpers/services';
import { startSmtp, type CapturedMail, type SmtpCapture } from '../../helpers/smtp';
import { grantPlan, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, posts, subscribe, waitForPosts } from '../../helpers/webhooks';
import { eventually, quietFor } from '../../helpers/wait';

/**
 * Quota alerts (docs/billing.md#quota-alerts): at 80 % and 100 % of a pool's monthly quota the
 * consumer gets one e-mail and one `quota.threshold` on their own subscriptions, once a month per
 * threshold, across instances; no other consumer's subscription receives it, `*` or not. A key
 * with limits of its own and a consumer's plan pool alike; a plan change starts the new plan's
 * pool, and a changed quota is measured afresh.
 */
let app: TestApp;
let other: Instance;
let receiver: Receiver;
let smtp: SmtpCapture;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;
let key: IssuedKey;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Longer than a publish takes to reach a receiver here: an alert sent twice would arrive within it. */
const QUIET_MS = 2_000;
const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const monthStart = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
};
const alerts = (path: string) => (request: ReceivedRequest) =>
  request.path === path && request.headers['x-webhook-event'] === 'quota.threshold';
const alertsTo = (path: string) =>
  posts(receiver)
    .filter(alerts(path))
    .map((request) => eventOf(request).data);
const mailsTo = (user: TestUser): CapturedMail[] => smtp.messages.filter((mail) => mail.to.includes(user.email));
const unfolded = (raw: string) => raw.replace(/=\r?\n/g, '');
/** Two alerts of one pool are published a request apart and may arrive in either order. */
const byPercent = (list: Array<Record<string, unknown>>) =>
  [...list].sort((a, b) => Number(a.plan_id) - Number(b.plan_id) || Number(a.percent) - Number(b.percent));
const statuses = async (count: number, request: () => PromiseLike<{ status: number }>) => {
  const seen: number[] = [];
  for (let i = 0; i < count; i += 1) seen.push((await request()).status);
  return seen;
};

beforeAll(async () => {
  smtp = await startSmtp();
  receiver = await startReceiver();
  app = await startApp({
    env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_IGNORE_TLS: 'true', EMAIL_FROM: 'api@example.test' },
  });
  other = await startInstance(app);
  // On enterprise, which reaches the webhook routes and has no monthly limit of its own.
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  carol = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
  await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice`, events: ['*'] });
  await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice-orders`, events: ['order.*'] });
  await subscribe(app, bob, { endpoint_url: `${receiver.url}/bob`, events: ['*'] });
  await subscribe(app, carol, { endpoint_url: `${receiver.url}/carol`, events: ['quota.threshold'] });
  // An administrator's '*' subscription: administrators are consumers too, and get no one else's alert.
  await subscribe(app, admin, { endpoint_url: `${receiver.url}/admin`, events: ['*'] });
  key = await issueKey(app, alice, { name: 'CI job' });
  const limited = await app.request().patch(`/api/v1/keys/${key.id}`).set(as(admin)).send({ requests_per_month: 10 });
  expect(limited.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await other?.stop();
  await app?.close();
  await receiver?.close();
  await smtp?.close();
});

describe('a key with limits of its own (10 a month)', () => {
  const withKey = (target: { request: TestApp['request'] }) => () => target.request().get('/api/v1/articles').set('X-API-Key', key.key);

  it('alerts at the 8th and the 10th request, once each: two events on her own subscriptions, two e-mails, none to anybody else', async () => {
    expect(await statuses(11, withKey(app))).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429]);
    await waitForPosts(receiver, 2, alerts('/alice'));
    expect(byPercent(alertsTo('/alice'))).toEqual([
      { plan_id: key.plan_id, plan: 'enterprise', used: 8, quota: 10, percent: 80, period_start: monthStart() },
      { plan_id: key.plan_id, plan: 'enterprise', used: 10, quota: 10, percent: 100, period_start: monthStart() },
    ]);
    expect(alertsTo('/alice')[0].period_start).toMatch(ISO);

    await smtp.waitFor(2);
    const [eighty, hundred] = [...mailsTo(alice)].sort((a, b) => b.subject.length - a.subject.length);
    expect([eighty.subject, hundred.subject]).toEqual([
      'You have used 80 % of your monthly API quota',
      'You have used your monthly API quota',
    ]);
    expect(unfolded(eighty.raw)).toContain('Requests with your key "CI job"');
    expect(unfolded(eighty.raw)).toContain(key.key_prefix);
    expect(unfolded(eighty.raw)).toContain('have reached 8 of the 10 this month: 80 % of the monthly quota.');
    expect(unfolded(hundred.raw)).toContain('have reached 10 of the 10 this month: 100 % of the monthly quota.');
    expect(unfolded(hundred.raw)).toContain('Requests over the quota are refused (429 monthly_quota_exceeded)');
  });

  it(`sends nothing again from a second instance (${redisUrl ? 'sharing the count through Redis' : 'counting on its own'}), nor to anyone else`, async () => {
    // With Redis the second instance sees the month used up; without it, it counts its own ten and
    // crosses both thresholds itself: either way the alerts are claimed already.
    expect(await statuses(11, withKey(other))).toEqual(redisUrl ? Array(11).fill(429) : [...Array(10).fill(200), 429]);
    const settled = await quietFor(
      QUIET_MS,
      () => ({
        alice: alertsTo('/alice').length,
        aliceOrders: alertsTo('/alice-orders').length,
        bob: alertsTo('/bob').length,
        admin: alertsTo('/admin').length,
        mails: smtp.messages.length,
      }),
      'quota alerts'
    );
    expect(settled).toEqual({ alice: 2, aliceOrders: 0, bob: 0, admin: 0, mails: 2 });
    expect(mailsTo(alice)).toHaveLength(2);
  });

  it('measures a changed quota afresh: raised to 20 mid-month, the 16th request alerts at 80 % of it', async () => {
    const raised = await app.request().patch(`/api/v1/keys/${key.id}`).set(as(admin)).send({ requests_per_month: 20 });
    expect(raised.status).toBe(200);
    expect(await statuses(6, withKey(app))).toEqual(Array(6).fill(200));
    await waitForPosts(receiver, 3, alerts('/alice'));
    expect(alertsTo('/alice')[2]).toEqual({
      plan_id: key.plan_id,
      plan: 'enterprise',
      used: 16,
      quota: 20,
      percent: 80,
      period_start: monthStart(),
    });
    await smtp.waitFor(3);
    expect(mailsTo(alice)).toHaveLength(3);
    expect(mailsTo(alice)[2].subject).toBe('You have used 80 % of your monthly API quota');
    expect(unfolded(mailsTo(alice)[2].raw)).toContain('have reached 16 of the 20 this month');
    expect(alertsTo('/bob')).toEqual([]);
  });
});

describe("a consumer's plan pool", () => {
  const withJwt = () => app.request().get('/api/v1/articles').set(as(carol));

  it('alerts on the plan, and a plan change mid-month starts the new plan’s pool and its alerts; going back repeats nothing', async () => {
    const endpoints = ['GET /api/v1/articles*', '* /api/webhooks/*'];
    const small = await createPlan(app, { name: 'small', requests_per_month: 5, requests_per_minute: 100, endpoints });
    const bigger = await createPlan(app, { name: 'bigger', requests_per_month: 10, requests_per_minute: 100, endpoints });
    await grantPlan(app, carol, 'small');
    expect(await statuses(6, withJwt)).toEqual([200, 200, 200, 200, 200, 429]);
    await waitForPosts(receiver, 2, alerts('/carol'));

    await grantPlan(app, carol, 'bigger');
    expect(await statuses(10, withJwt)).toEqual(Array(10).fill(200));
    await waitForPosts(receiver, 4, alerts('/carol'));

    await grantPlan(app, carol, 'small');
    expect(await statuses(2, withJwt)).toEqual([429, 429]);
    await eventually(() => (mailsTo(carol).length >= 4 ? true : undefined), 10_000, "carol's four e-mails");
    const settled = await quietFor(QUIET_MS, () => ({ alerts: alertsTo('/carol').length, mails: mailsTo(carol).length }), "carol's alerts");
    expect(settled).toEqual({ alerts: 4, mails: 4 });
    expect(byPercent(alertsTo('/carol'))).toEqual([
      { plan_id: small, plan: 'small', used: 4, quota: 5, percent: 80, period_start: monthStart() },
      { plan_id: small, plan: 'small', used: 5, quota: 5, percent: 100, period_start: monthStart() },
      { plan_id: bigger, plan: 'bigger', used: 8, quota: 10, percent: 80, period_start: monthStart() },
      { plan_id: bigger, plan: 'bigger', used: 10, quota: 10, percent: 100, period_start: monthStart() },
    ]);
    const texts = mailsTo(carol).map((mail) => unfolded(mail.raw));
    for (const line of [
      'Your requests on the small plan have reached 4 of the 5 this month',
      'Your requests on the small plan have reached 5 of the 5 this month',
      'Your requests on the bigger plan have reached 8 of the 10 this month',
      'Your requests on the bigger plan have reached 10 of the 10 this month',
    ]) {
      expect(texts.filter((text) => text.includes(line))).toHaveLength(1);
    }
    expect(alertsTo('/bob')).toEqual([]);
    expect(alertsTo('/admin')).toEqual([]);
  });
});

describe('publishing quota.threshold by hand', () => {
  it('is refused in code unless exactly one consumer is named', async () => {
    const webhooks = app.strapi.plugin('api-suite').service('webhooks') as {
      publish(type: string, payload: unknown, options?: { consumerId?: string; consumerIds?: string[] }): Promise<unknown>;
    };
    const payload = { plan_id: 1, plan: 'free', used: 800, quota: 1000, percent: 80, period_start: monthStart() };
    const refusal = 'quota.threshold is published to the one consumer it concerns: name them alone';
    await expect(webhooks.publish('quota.threshold', payload)).rejects.toThrow(refusal);
    await expect(webhooks.publish('quota.threshold', payload, { consumerIds: [alice.consumer_id, bob.consumer_id] })).rejects.toThrow(
      refusal
    );
    await expect(webhooks.publish('quota.threshold', payload, { consumerIds: [] })).rejects.toThrow(refusal);
  });

  it('is refused to administrators: it would reach every subscriber of the type', async () => {
    const response = await app
      .request()
      .post('/api/webhooks/events')
      .set(as(admin))
      .send({
        type: 'quota.threshold',
        payload: { plan_id: 1, plan: 'free', used: 800, quota: 1000, percent: 80, period_start: monthStart() },
      });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'Only the plugin publishes quota.threshold, to the one consumer concerned',
      code: 'invalid_events',
      invalid_events: ['quota.threshold'],
    });
  });
});
