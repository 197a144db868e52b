import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { redisUrl } from '../../helpers/services';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { orderData, subscribe, waitForPosts } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';

/**
 * Publishing caches who subscribes to what. A change made through one instance must reach the
 * publishing of another: at once through Redis, and without Redis (one instance is the supported
 * shape then) within the cache's few seconds.
 */
let app: TestApp;
let other: Instance;
let receiver: Receiver;
let alice: TestUser;
let admin: TestUser;

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
  app = await startApp();
  other = await startInstance(app);
  alice = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
}, 120_000);

afterAll(async () => {
  await other?.stop();
  await app?.close();
  await receiver?.close();
});

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const publishOnOther = async () => {
  const response = await other
    .request()
    .post('/api/webhooks/events')
    .set(as(admin))
    .send({ type: 'order.updated', payload: orderData('o1') });
  expect(response.status).toBe(202);
  return response.body.deliveries as number;
};
/** With Redis the change is seen by the very next publish; without it, within the cache's lifetime. */
const seenByOther = (expected: number) =>
  redisUrl
    ? publishOnOther().then((deliveries) => expect(deliveries).toBe(expected))
    : eventually(async () => ((await publishOnOther()) === expected ? true : undefined), 8_000);

it(`reaches the other instance's publishing when a subscription is created, paused and resumed (${redisUrl ? 'through Redis' : 'without Redis'})`, async () => {
  expect(await publishOnOther()).toBe(0);

  const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/hooks`, events: ['order.updated'] });
  await seenByOther(1);
  await waitForPosts(receiver, 1, (request) => request.headers['x-webhook-event'] === 'order.updated');

  const paused = await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ is_active: false });
  expect(paused.status).toBe(200);
  await seenByOther(0);

  const resumed = await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ is_active: true });
  expect(resumed.status).toBe(200);
  await seenByOther(1);
}, 60_000);
