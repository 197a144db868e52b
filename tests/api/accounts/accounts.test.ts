import crypto from 'node:crypto';
import { startApp, type TestApp } from '../../helpers/app';
import { expectAnswer } from '../../helpers/answers';
import { stripeEnv, STRIPE_WEBHOOK_SECRET } from '../../helpers/commerce';
import { startInstance, type Instance } from '../../helpers/instance';
import { issueKey, planId, type IssuedKey } from '../../helpers/keys';
import { expectResponseToMatchSpec, useOpenApiDocument, type SpecResponse } from '../../helpers/openapi';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { redisUrl } from '../../helpers/services';
import { startSite, type TestSite } from '../../helpers/site';
import { startSmtp, type SmtpCapture } from '../../helpers/smtp';
import { startStripeStub, type StripeStub } from '../../helpers/stripe-stub';
import { administratorOf, adminSession, documentIdOf, registerUser, type TestUser } from '../../helpers/users';
import { orderData, posts, subscribe, type CreatedSubscription } from '../../helpers/webhooks';
import { eventually, timePasses } from '../../helpers/wait';
import type { OpenApiDocument } from '../../../src/plugins/api-suite/server/src/contract/openapi';
import { accountExport } from '../../../src/plugins/api-suite/server/src/features/accounts/validation/responses';

/**
 * Accounts that can leave (docs/accounts.md), against the Stripe stub, a local SMTP server, a slow
 * webhook receiver and a local site: the export holds everything and no secret; closing an
 * account, by its owner, by an administrator in the Content Manager (one user or a bulk delete) or
 * through users-permissions' `DELETE /api/users/:id`, stops its keys on every
 * instance within a second, sends nothing more to its endpoints after the answer, never runs its
 * scheduled scraper again, cancels its Stripe subscription, and keeps its orders and usage without
 * the person. With Redis a second instance serves the same database: the keys must stop there too.
 */
let app: TestApp;
/** Another instance on the same database and Redis (PostgreSQL + Redis runs; without Redis one instance is the supported shape). */
let second: Instance | null = null;
let stub: StripeStub;
let receiver: Receiver;
let site: TestSite;
let smtp: SmtpCapture;
let admin: TestUser;
let enterprise: number;

/** How long the receiver takes over each order.updated delivery: most of a burst is still waiting when the account closes. */
const SLOW_MS = 1_500;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const USER = 'plugin::users-permissions.user';

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const table = (uid: string) => app.strapi.db.metadata.get(uid as Parameters<TestApp['strapi']['db']['metadata']['get']>[0]).tableName;
const knex = () => app.strapi.db.connection;
const flushUsage = () => (app.strapi.plugin('api-suite').service('usage') as { flush(): Promise<void> }).flush();
const instances = () => [app, ...(second ? [second] : [])];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- supertest types every body as any; each test reads what it checks
type Answer = SpecResponse & { body: any; text: string };
const check = <T extends Answer>(response: T, method: string, template: string): T => {
  expectResponseToMatchSpec(response, method, template);
  return response;
};

beforeAll(async () => {
  stub = await startStripeStub();
  smtp = await startSmtp();
  site = await startSite();
  receiver = await startReceiver((request) =>
    request.method === 'POST' && request.headers['x-webhook-event'] === 'order.updated'
      ? { status: 200, delayMs: SLOW_MS }
      : { status: 200 }
  );
  app = await startApp({
    env: {
      ...stripeEnv(stub),
      STRIPE_CURRENCY: 'eur',
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_IGNORE_TLS: 'true',
      // Two sends at a time to one endpoint: a burst queues behind the slow receiver.
      WEBHOOK_ENDPOINT_CONCURRENCY: '2',
    },
  });
  stub.webhookTarget = { url: `${app.url}/api/webhook/stripe`, secret: STRIPE_WEBHOOK_SECRET };
  enterprise = await planId(app, 'enterprise');
  await eventually(
    async () => ((await app.request().get('/api/v1/billing/plans')).status === 200 && stub.store.prices.size >= 2 ? true : undefined),
    20_000,
    'billing provisioned'
  );
  if (redisUrl) second = await startInstance(app);
  admin = await administratorOf(app);
  useOpenApiDocument((await app.request().get('/api/v1/openapi.json')).body as OpenApiDocument);
}, 120_000);

afterAll(async () => {
  await second?.stop();
  await app?.close();
  await Promise.all([stub?.close(), receiver?.close(), site?.close(), smtp?.close()]);
});

interface Holdings {
  user: TestUser;
  key: IssuedKey;
  hook: CreatedSubscription;
  /** The subscription's row id (deliveries name it). */
  hookId: number;
  scraperId: number;
  /** The start page of its scraper, its own so hits tell it apart. */
  crawlPath: string;
  orderUuid: string;
  stripeSubscriptionId: string;
}

/**
 * A consumer holding one of everything: a paid Stripe subscription (enterprise), a key, a webhook
 * endpoint on the slow receiver, a scraper that runs every second, an order with an address, and
 * requests made with the key. The key is cached on every instance.
 */
async function consumerWithEverything(): Promise<Holdings> {
  const user = await registerUser(app);
  const bought = await app.request().post('/api/v1/billing/checkout').set(as(user)).send({ plan_id: enterprise });
  expect(bought.status).toBe(200);
  stub.completeCheckout(bought.body.data.session_id);
  await stub.flush();
  const stripeSubscriptionId = (stub.sessions.get(bought.body.data.session_id) as unknown as { subscription: string }).subscription;
  await eventually(
    async () => ((await app.request().get('/api/v1/billing/subscription').set(as(user))).body.data?.status === 'active' ? true : undefined),
    10_000,
    'the subscription applied'
  );

  const key = await issueKey(app, user, { scopes: ['read', 'write'] });
  const hook = await subscribe(app, user, { endpoint_url: `${receiver.url}/${user.username}`, events: ['order.updated'] });
  const hookRow = (await knex()(table('plugin::api-suite.webhook-subscription')).where({ uuid: hook.id }).first('id')) as { id: number };
  const crawlPath = `/crawl/${user.username}`;
  const scraper = await app
    .request()
    .post('/api/v1/scrapers')
    .set(as(user))
    .send({ name: 'every second', url: `${site.url}${crawlPath}`, schedule: '* * * * * *' });
  expect(scraper.status).toBe(201);

  // An order as checkout writes one (checkout itself is tested in commerce): its buyer, items and address.
  const orderUuid = crypto.randomUUID();
  await app.strapi.db.query('plugin::api-suite.order').create({
    data: {
      documentId: crypto.randomBytes(12).toString('hex'),
      uuid: orderUuid,
      user: user.id,
      items: [{ product_id: 7, quantity: 2, price: 12.5, name: 'Mug' }],
      total: 25,
      currency: 'eur',
      shipping_address: { street: '1 Rue de la Paix', city: 'Paris' },
      payment_method: 'card',
      status: 'paid',
      date_created: new Date(),
    },
  });

  for (let n = 0; n < 3; n += 1) await app.request().get('/api/v1/articles').set('X-API-Key', key.key).expect(200);
  for (const instance of instances()) await instance.request().get('/api/v1/keys').set('X-API-Key', key.key).expect(200);
  // Every request made with a key is recorded, on the instance that served it: all of them written before going on.
  await flushUsage();
  const recorded = async () =>
    Number(
      ((await knex()(table('plugin::api-suite.usage-record')).where({ api_key_id: key.id }).count({ n: '*' }).first()) as { n: unknown }).n
    );
  await eventually(
    async () => ((await recorded()) === 3 + instances().length ? true : undefined),
    10_000,
    "the key's usage records written"
  );
  return { user, key, hook, hookId: hookRow.id, scraperId: scraper.body.id as number, crawlPath, orderUuid, stripeSubscriptionId };
}

/** A burst of order.updated published by the administrator, once the scraper is running: much of it still waits for the slow receiver. */
async function busy(holdings: Holdings): Promise<void> {
  await eventually(() => (site.hits.some((hit) => hit.path === holdings.crawlPath) ? true : undefined), 15_000, 'a scheduled run fetching');
  for (let n = 0; n < 12; n += 1) {
    const published = await app
      .request()
      .post('/api/webhooks/events')
      .set(as(admin))
      .send({ type: 'order.updated', payload: orderData(`burst-${n}`) });
    expect(published.status).toBe(202);
  }
  await eventually(() => (deliveriesTo(holdings).length > 0 ? true : undefined), 15_000, 'a delivery under way');
}

const deliveriesTo = (holdings: Holdings) =>
  posts(receiver).filter(
    (request) => request.path === `/${holdings.user.username}` && request.headers['x-webhook-event'] === 'order.updated'
  );

/** Every effect of a closed account, `closedAt` being the moment its closing was answered. */
async function expectClosed(holdings: Holdings, closedAt: number, by: 'consumer' | 'administrator'): Promise<void> {
  const { user, key } = holdings;

  // The key, on every instance, within a second of the answer; the JWT too.
  const refusedWithin = await Promise.all(
    instances().map((instance) =>
      eventually(
        async () => {
          const response = await instance.request().get('/api/v1/keys').set('X-API-Key', key.key);
          return response.status === 401 && response.body.error.code === 'invalid_api_key' ? Date.now() - closedAt : undefined;
        },
        5_000,
        'the key refused'
      )
    )
  );
  for (const elapsed of refusedWithin) expect(elapsed).toBeLessThan(1_000);
  const jwt = await app.request().get('/api/v1/keys').set(as(user));
  expect(jwt.status).toBe(401);
  expect(jwt.body.error.code).toBe('invalid_token');

  // The Stripe subscription, cancelled in Stripe.
  const subscription = stub.store.subscriptions.get(holdings.stripeSubscriptionId) as unknown as {
    status: string;
    cancellation_details: { comment: string | null };
  };
  expect(subscription.status).toBe('canceled');
  expect(subscription.cancellation_details.comment).toBe('The customer deleted their account');

  // Nothing sent to its endpoint, nor fetched by its scraper, after the answer: the slow receiver
  // would have had the rest of the burst by now, and the every-second schedule three more runs.
  const sentBefore = deliveriesTo(holdings).length;
  // The schedule fires every second and a delivery takes 1.5 s: 4 s is several of each.
  await timePasses(4_000);
  expect(deliveriesTo(holdings).filter((request) => request.receivedAt > closedAt)).toEqual([]);
  expect(deliveriesTo(holdings).length).toBe(sentBefore);
  expect(sentBefore).toBeLessThan(12);
  expect(site.hits.filter((hit) => hit.path === holdings.crawlPath && hit.at > closedAt)).toEqual([]);

  // Its subscriptions, deliveries, scrapers, runs and results are gone.
  const count = async (uid: string, where: Record<string, unknown>) =>
    Number(((await knex()(table(uid)).where(where).count({ n: '*' }).first()) as { n: unknown }).n);
  expect(await count('plugin::api-suite.webhook-subscription', { consumer_id: user.consumer_id })).toBe(0);
  expect(await count('plugin::api-suite.webhook-delivery', { subscription_id: holdings.hookId })).toBe(0);
  expect(await count('plugin::api-suite.scraper', { consumer_id: user.consumer_id })).toBe(0);
  expect(await count('plugin::api-suite.scraper-run', { scraper_id: holdings.scraperId })).toBe(0);
  expect(await count('plugin::api-suite.scraper-result', { scraper_id: holdings.scraperId })).toBe(0);
  expect(await count('plugin::api-suite.api-key', { id: key.id })).toBe(0);
  expect(await count(USER, { id: user.id })).toBe(0);

  // Orders and usage stay, without the person.
  const order = await app.strapi.db
    .query('plugin::api-suite.order')
    .findOne({ where: { uuid: holdings.orderUuid }, populate: { user: { select: ['id'] } } });
  expect(order).toMatchObject({
    uuid: holdings.orderUuid,
    status: 'paid',
    consumer_id: user.consumer_id,
    shipping_address: null,
    user: null,
  });
  expect(Number(order.total)).toBe(25);
  expect(await count('plugin::api-suite.usage-record', { user_id: user.id })).toBe(0);
  expect(await count('plugin::api-suite.usage-record', { consumer_id: user.consumer_id })).toBeGreaterThanOrEqual(3);
  const billing = await knex()(table('plugin::api-suite.billing-subscription')).where({ consumer_id: user.consumer_id }).first();
  expect(billing).toMatchObject({ user_id: null, status: 'canceled', stripe_subscription_id: holdings.stripeSubscriptionId });

  // And an e-mail says so.
  const mail = await eventually(() => smtp.messages.find((message) => message.to.includes(user.email)), 10_000, 'the confirmation');
  expect(mail.subject).toBe('Your API portal account has been deleted');
  const text = mail.raw.replace(/=\r?\n/g, '');
  expect(text).toContain(by === 'consumer' ? 'As you asked, your account' : 'deleted by an administrator of the site');
  expect(text).toContain('Your paid subscription has been cancelled');
}

describe('GET /api/v1/account/export', () => {
  it('holds everything the site keeps about the consumer, and none of their secrets', async () => {
    const holdings = await consumerWithEverything();
    const { user, key, hook } = holdings;
    const response = check(await app.request().get('/api/v1/account/export').set(as(user)), 'get', '/api/v1/account/export');
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="account-${user.consumer_id}.json"`);
    expectAnswer(accountExport, response.body);

    const month = new Date().toISOString().slice(0, 7);
    const statuses = (await knex()(table('plugin::api-suite.usage-record'))
      .where({ user_id: user.id })
      .select('status_code')
      .count({ n: '*' })
      .groupBy('status_code')) as Array<{ status_code: number; n: unknown }>;
    const byStatus = Object.fromEntries(statuses.map((row) => [String(row.status_code), Number(row.n)]));
    expect(byStatus['200']).toBeGreaterThanOrEqual(3);

    expect(response.body).toEqual({
      exported_at: expect.stringMatching(ISO),
      profile: {
        id: user.id,
        username: user.username,
        email: user.email,
        consumer_id: user.consumer_id,
        provider: 'local',
        confirmed: true,
        blocked: false,
        role: 'authenticated',
        plan: { id: enterprise, name: 'enterprise' },
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
      keys: [
        expect.objectContaining({
          id: key.id,
          key_prefix: key.key.slice(0, 8),
          client_id: key.client_id,
          status: 'active',
          user_id: user.id,
        }),
      ],
      webhook_subscriptions: [expect.objectContaining({ id: hook.id, consumer_id: user.consumer_id, events: ['order.updated'] })],
      scrapers: [expect.objectContaining({ id: holdings.scraperId, schedule: '* * * * * *', url: `${site.url}${holdings.crawlPath}` })],
      usage: [{ month, total: Object.values(byStatus).reduce((sum, n) => sum + n, 0), by_status: byStatus }],
      orders: [
        {
          id: holdings.orderUuid,
          status: 'paid',
          total: 25,
          currency: 'eur',
          items: [{ product_id: 7, quantity: 2, price: 12.5, name: 'Mug' }],
          shipping_address: { street: '1 Rue de la Paix', city: 'Paris' },
          payment_method: 'card',
          payment_id: null,
          created_at: expect.stringMatching(ISO),
          paid_at: null,
        },
      ],
      billing: {
        customer_id: expect.stringMatching(/^cus_/),
        subscription: {
          subscription_id: holdings.stripeSubscriptionId,
          plan_id: enterprise,
          status: 'active',
          current_period_end: expect.stringMatching(ISO),
          cancel_at_period_end: false,
          grace_until: null,
        },
      },
    });

    // Not the key, nor its hash, nor the signing secret (as given or as stored), nor the password's hash.
    const stored = {
      keyHash: ((await knex()(table('plugin::api-suite.api-key')).where({ id: key.id }).first('key_hash')) as { key_hash: string })
        .key_hash,
      sealed: (
        (await knex()(table('plugin::api-suite.webhook-subscription')).where({ uuid: hook.id }).first('secret')) as { secret: string }
      ).secret,
      password: ((await knex()(table(USER)).where({ id: user.id }).first('password')) as { password: string }).password,
    };
    for (const secret of [key.key, stored.keyHash, hook.secret, stored.sealed, stored.password, user.password]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(response.text).not.toContain(secret);
    }

    // Its scraper and endpoint would keep the shared site and receiver busy for the tests below.
    await app.request().delete('/api/v1/account').set(as(user)).send({ password: user.password }).expect(204);
  });

  it("answers only the consumer's own sign-in: an API key is refused with 403 session_required, nothing with 401", async () => {
    const user = await registerUser(app);
    const key = await issueKey(app, user, { scopes: ['read', 'write'] });
    const withKey = check(await app.request().get('/api/v1/account/export').set('X-API-Key', key.key), 'get', '/api/v1/account/export');
    expect(withKey.status).toBe(403);
    expect(withKey.body).toEqual({
      error: {
        code: 'session_required',
        message:
          "This route needs the consumer's own sign-in: send the JWT from POST /api/auth/local as a Bearer token, not an API key or an OAuth token",
      },
    });
    const anonymous = check(await app.request().get('/api/v1/account/export'), 'get', '/api/v1/account/export');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('api_key_required');
  });
});

describe('DELETE /api/v1/account', () => {
  it('refuses a missing or wrong password with 400, an API key with 403, and a sixth wrong password with 429; the account stays', async () => {
    const user = await registerUser(app);
    // Both scopes: the refusal below is for the kind of credential, not its scope.
    const key = await issueKey(app, user, { scopes: ['read', 'write'] });
    const remove = () => app.request().delete('/api/v1/account').set(as(user));

    const missing = check(await remove(), 'delete', '/api/v1/account');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: {
        code: 'validation_error',
        message: 'password: must be your password',
        details: [{ field: 'password', message: 'must be your password' }],
      },
    });
    const extra = check(await remove().send({ password: user.password, force: true }), 'delete', '/api/v1/account');
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe('validation_error');
    const notJson = await remove().set('Content-Type', 'text/plain').send(`password=${user.password}`);
    expect(notJson.status).toBe(415);
    const withKey = check(
      await app.request().delete('/api/v1/account').set('X-API-Key', key.key).send({ password: user.password }),
      'delete',
      '/api/v1/account'
    );
    expect(withKey.status).toBe(403);
    expect(withKey.body.error.code).toBe('session_required');

    for (let n = 1; n <= 5; n += 1) {
      const wrong = check(await remove().send({ password: `${user.password}-not` }), 'delete', '/api/v1/account');
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ error: { code: 'invalid_password', message: 'The password is not correct' } });
    }
    // Five wrong ones in the window: even the right one waits now.
    const locked = check(await remove().send({ password: user.password }), 'delete', '/api/v1/account');
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('too_many_attempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);

    expect((await app.request().get('/api/users/me').set(as(user))).status).toBe(200);
    await app.request().get('/api/v1/keys').set('X-API-Key', key.key).expect(200);
  });

  it('holds the wrong-password limit under tries sent at once: at most five are checked, the others wait', async () => {
    const user = await registerUser(app);
    const tries = await Promise.all(
      Array.from({ length: 20 }, () =>
        app
          .request()
          .delete('/api/v1/account')
          .set(as(user))
          .send({ password: `${user.password}-not` })
      )
    );
    const codes = tries.map((response) => response.body.error?.code as string);
    expect(codes.filter((code) => code === 'invalid_password').length).toBeLessThanOrEqual(5);
    expect(codes.filter((code) => code === 'too_many_attempts').length).toBeGreaterThanOrEqual(15);
    expect(codes.every((code) => code === 'invalid_password' || code === 'too_many_attempts')).toBe(true);
    expect((await app.request().get('/api/users/me').set(as(user))).status).toBe(200);
  });

  it('changes nothing and answers 502 while Stripe cannot cancel the subscription; an administrator is refused likewise', async () => {
    const user = await registerUser(app);
    const bought = await app.request().post('/api/v1/billing/checkout').set(as(user)).send({ plan_id: enterprise });
    stub.completeCheckout(bought.body.data.session_id);
    await stub.flush();
    await eventually(
      async () =>
        (await app.request().get('/api/v1/billing/subscription').set(as(user))).body.data?.status === 'active' ? true : undefined,
      10_000,
      'the subscription applied'
    );
    const key = await issueKey(app, user);
    stub.down = 500;
    try {
      const refused = check(
        await app.request().delete('/api/v1/account').set(as(user)).send({ password: user.password }),
        'delete',
        '/api/v1/account'
      );
      expect(refused.status).toBe(502);
      expect(refused.body.error.code).toBe('payment_provider_error');
      const session = await adminSession(app);
      const byAdmin = await app
        .request()
        .delete(`/content-manager/collection-types/${USER}/${await documentIdOf(app, user.id)}`)
        .set('Authorization', `Bearer ${session.token}`);
      expect(byAdmin.status).toBe(400);
      expect(byAdmin.body.error.message).toBe(
        'The user has a live Stripe subscription that could not be cancelled, so nothing was deleted: try again in a moment'
      );
    } finally {
      stub.down = null;
    }
    await app.request().get('/api/v1/keys').set('X-API-Key', key.key).expect(200);
    expect((await app.request().get('/api/users/me').set(as(user))).status).toBe(200);
  });

  it("refuses a bulk delete whose second user's subscription Stripe cannot read, with nobody's subscription cancelled; cancels both once it can", async () => {
    const subscribed = async (): Promise<{ user: TestUser; subscription: string }> => {
      const user = await registerUser(app);
      const bought = await app.request().post('/api/v1/billing/checkout').set(as(user)).send({ plan_id: enterprise });
      stub.completeCheckout(bought.body.data.session_id);
      await stub.flush();
      await eventually(
        async () =>
          (await app.request().get('/api/v1/billing/subscription').set(as(user))).body.data?.status === 'active' ? true : undefined,
        10_000,
        'the subscription applied'
      );
      return { user, subscription: (stub.sessions.get(bought.body.data.session_id) as unknown as { subscription: string }).subscription };
    };
    const first = await subscribed();
    const second = await subscribed();
    const session = await adminSession(app);
    const bulkDelete = async () =>
      app
        .request()
        .post(`/content-manager/collection-types/${USER}/actions/bulkDelete`)
        .set('Authorization', `Bearer ${session.token}`)
        .send({ documentIds: [await documentIdOf(app, first.user.id), await documentIdOf(app, second.user.id)] });

    stub.failing = new RegExp(`/v1/subscriptions/${second.subscription}$`);
    try {
      const refused = await bulkDelete();
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(
        'The user has a live Stripe subscription that could not be cancelled, so nothing was deleted: try again in a moment'
      );
    } finally {
      stub.failing = null;
    }
    // Nothing changed anywhere: both users are there, and neither subscription was cancelled in Stripe.
    for (const { user, subscription } of [first, second]) {
      expect((await app.request().get('/api/users/me').set(as(user))).status).toBe(200);
      expect(stub.store.subscriptions.get(subscription)?.status).toBe('active');
    }

    const deleted = await bulkDelete();
    expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 200, body: { count: 2 } });
    for (const { subscription } of [first, second]) expect(stub.store.subscriptions.get(subscription)?.status).toBe('canceled');
  });

  it('closes the account: keys refused everywhere within a second, nothing sent or fetched after the answer, Stripe cancelled, orders and usage kept without the person', async () => {
    const holdings = await consumerWithEverything();
    await busy(holdings);
    const closed = check(
      await app.request().delete('/api/v1/account').set(as(holdings.user)).send({ password: holdings.user.password }),
      'delete',
      '/api/v1/account'
    );
    const closedAt = Date.now();
    expect(closed.status).toBe(204);
    expect(closed.text).toBe('');
    await expectClosed(holdings, closedAt, 'consumer');
  });
});

describe('an administrator deleting the user', () => {
  it('in the Content Manager closes the account the same way', async () => {
    const holdings = await consumerWithEverything();
    await busy(holdings);
    const session = await adminSession(app);
    const deleted = await app
      .request()
      .delete(`/content-manager/collection-types/${USER}/${await documentIdOf(app, holdings.user.id)}`)
      .set('Authorization', `Bearer ${session.token}`);
    const closedAt = Date.now();
    expect(deleted.status).toBe(200);
    await expectClosed(holdings, closedAt, 'administrator');
  });

  it('in the Content Manager, several at once (bulk delete), closes each account the same way', async () => {
    const holdings = await consumerWithEverything();
    // A second one with a key and requests only.
    const other = await registerUser(app);
    const otherKey = await issueKey(app, other);
    await app.request().get('/api/v1/articles').set('X-API-Key', otherKey.key).expect(200);
    await flushUsage();
    await busy(holdings);
    const session = await adminSession(app);
    const deleted = await app
      .request()
      .post(`/content-manager/collection-types/${USER}/actions/bulkDelete`)
      .set('Authorization', `Bearer ${session.token}`)
      .send({ documentIds: [await documentIdOf(app, holdings.user.id), await documentIdOf(app, other.id)] });
    const closedAt = Date.now();
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ count: 2 });
    // The answer came once both closings were done, as for one user.
    expect(await closedInDatabase(holdings.user, holdings.key)).toEqual({ keys: 0, usage: 0, scrapers: 0, subscriptions: 0 });
    expect(await closedInDatabase(other, otherKey)).toEqual({ keys: 0, usage: 0, scrapers: 0, subscriptions: 0 });
    await expectClosed(holdings, closedAt, 'administrator');
    await expectOtherClosed(other, otherKey);
  });

  it("through users-permissions' own DELETE /api/users/:id closes the account the same way", async () => {
    const holdings = await consumerWithEverything();
    await busy(holdings);
    const manager = await userManager();
    const deleted = await app.request().delete(`/api/users/${holdings.user.id}`).set(as(manager));
    const closedAt = Date.now();
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: holdings.user.id, username: holdings.user.username, email: holdings.user.email });
    expect(await closedInDatabase(holdings.user, holdings.key)).toEqual({ keys: 0, usage: 0, scrapers: 0, subscriptions: 0 });
    await expectClosed(holdings, closedAt, 'administrator');
  });
});

/** What a closing removes or detaches, as the database holds it at this instant. */
async function closedInDatabase(user: TestUser, key: IssuedKey): Promise<Record<'keys' | 'usage' | 'scrapers' | 'subscriptions', number>> {
  const count = async (uid: string, where: Record<string, unknown>) =>
    Number(((await knex()(table(uid)).where(where).count({ n: '*' }).first()) as { n: unknown }).n);
  return {
    keys: await count('plugin::api-suite.api-key', { id: key.id }),
    usage: await count('plugin::api-suite.usage-record', { user_id: user.id }),
    scrapers: await count('plugin::api-suite.scraper', { consumer_id: user.consumer_id }),
    subscriptions: await count('plugin::api-suite.webhook-subscription', { consumer_id: user.consumer_id }),
  };
}

/** A consumer with only a key and its requests, closed: the key refused, the user gone, the usage kept under the consumer id. */
async function expectOtherClosed(user: TestUser, key: IssuedKey): Promise<void> {
  const refused = await app.request().get('/api/v1/keys').set('X-API-Key', key.key);
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('invalid_api_key');
  expect(await app.strapi.db.query(USER).count({ where: { id: user.id } })).toBe(0);
  expect(await app.strapi.db.query('plugin::api-suite.api-key').count({ where: { id: key.id } })).toBe(0);
  const usage = (where: Record<string, unknown>) =>
    knex()(table('plugin::api-suite.usage-record'))
      .where(where)
      .count({ n: '*' })
      .first()
      .then((row) => Number((row as { n: unknown }).n));
  expect(await usage({ user_id: user.id })).toBe(0);
  expect(await usage({ consumer_id: user.consumer_id })).toBeGreaterThanOrEqual(1);
  const mail = await eventually(() => smtp.messages.find((message) => message.to.includes(user.email)), 10_000, 'the confirmation');
  expect(mail.raw.replace(/=\r?\n/g, '')).toContain('deleted by an administrator of the site');
}

/** A signed-in user whose role may delete users through users-permissions' content API (as a site could grant it). */
async function userManager(): Promise<TestUser> {
  const user = await registerUser(app);
  const roles = app.strapi.db.query('plugin::users-permissions.role');
  const managers =
    (await roles.findOne({ where: { type: 'user-managers' } })) ??
    (await roles.create({ data: { name: 'User managers', type: 'user-managers', description: 'May delete users' } }));
  const permission = { action: 'plugin::users-permissions.user.destroy', role: managers.id };
  if ((await app.strapi.db.query('plugin::users-permissions.permission').count({ where: permission })) === 0) {
    await app.strapi.db.query('plugin::users-permissions.permission').create({ data: permission });
  }
  await app.strapi.db.query(USER).update({ where: { id: user.id }, data: { role: managers.id } });
  return user;
}
