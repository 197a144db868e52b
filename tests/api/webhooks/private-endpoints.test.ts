import os from 'node:os';
import { startApp, type TestApp } from '../../helpers/app';
import { registerUser, type TestUser } from '../../helpers/users';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/**
 * With OUTBOUND_ALLOW_PRIVATE=false (production's default), endpoints on loopback, private,
 * link-local, metadata, documentation or transition addresses, or on one of this host's own
 * addresses, are refused when saved (422 endpoint_not_allowed), also through a host name that
 * resolves there; and a delivery to one is a failed attempt, never a request.
 */
let app: TestApp;
let alice: TestUser;

beforeAll(async () => {
  // No worker: the test events queued at creation are never sent anywhere.
  app = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'false', WEBHOOK_WORKER: 'false' } });
  alice = await registerUser(app, { plan: 'enterprise' });
});

afterAll(async () => {
  await app?.close();
});

/** This machine's own addresses other than loopback (which is refused above anyway), whatever their range. */
function ownAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !entry.address.startsWith('fe80:'))
    .map((entry) => entry.address);
}

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });

async function subscriptionCount(): Promise<number> {
  const table = app.strapi.db.metadata.get(UIDS.webhookSubscription as never).tableName;
  const [{ total }] = await app.strapi.db.connection(table).count({ total: '*' });
  return Number(total);
}

it.each([
  'http://127.0.0.1:8080/hook',
  'http://localhost:8080/hook',
  'http://[::1]/hook',
  'http://10.1.2.3/hook',
  'http://192.168.0.10/hook',
  'http://172.16.5.4/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://100.64.0.1/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://0.0.0.0/hook',
  'http://192.0.2.1/hook',
  'http://198.51.100.1/hook',
  'http://203.0.113.1/hook',
  'http://[2001::1]/hook',
  'http://[64:ff9b:1::a00:1]/hook',
])('refuses %s with 422 endpoint_not_allowed and stores nothing', async (endpoint_url) => {
  const before = await subscriptionCount();
  const response = await app
    .request()
    .post('/api/webhooks/subscriptions')
    .set(as(alice))
    .send({ endpoint_url, events: ['order.created'] });
  expect(response.status).toBe(422);
  expect(response.body).toEqual({ error: expect.any(String), code: 'endpoint_not_allowed' });
  expect(await subscriptionCount()).toBe(before);
});

it("refuses this server's own addresses, whatever their range: a delivery's response body would hand its own services back", async () => {
  const port = new URL(app.url).port;
  const own = ownAddresses();
  expect(own.length).toBeGreaterThan(0);
  for (const address of own) {
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice))
      .send({ endpoint_url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/api/v1/plans`, events: ['order.created'] });
    expect({ address, status: response.status, code: response.body.code }).toEqual({ address, status: 422, code: 'endpoint_not_allowed' });
  }
});

it('refuses moving an existing subscription onto a private address', async () => {
  // .invalid never resolves (RFC 2606): a name that does not resolve yet is accepted, and nothing leaves the machine.
  const created = await app
    .request()
    .post('/api/webhooks/subscriptions')
    .set(as(alice))
    .send({ endpoint_url: 'https://hook.example.invalid/hook', events: ['order.created'] });
  expect(created.status).toBe(201);
  const response = await app
    .request()
    .patch(`/api/webhooks/subscriptions/${created.body.id}`)
    .set(as(alice))
    .send({ endpoint_url: 'http://localhost/hook' });
  expect(response.status).toBe(422);
  expect(response.body.code).toBe('endpoint_not_allowed');
  const view = await app.request().get(`/api/webhooks/subscriptions/${created.body.id}`).set(as(alice));
  expect(view.body.endpoint_url).toBe('https://hook.example.invalid/hook');
});

it('fails a delivery to an address that became private, without sending it', async () => {
  const created = await app
    .request()
    .post('/api/webhooks/subscriptions')
    .set(as(alice))
    .send({ endpoint_url: 'https://hook.example.invalid/hook', events: ['order.created'] });
  // As if the name had been re-pointed after it was saved (the check at connect time is what counts).
  const table = app.strapi.db.metadata.get(UIDS.webhookSubscription as never).tableName;
  await app.strapi.db.connection(table).where({ uuid: created.body.id }).update({ endpoint_url: 'http://localhost:9/hook' });
  await app.strapi.plugin('api-suite').service('webhook-subscriptions').forget('*');
  const response = await app.request().post(`/api/webhooks/subscriptions/${created.body.id}/test`).set(as(alice));
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ delivered: false, status_code: null });
  const delivery = await app.request().get(`/api/webhooks/deliveries/${response.body.delivery_id}`).set(as(alice));
  expect(delivery.body.status).toBe('failed');
  expect(delivery.body.attempts[0].error).toMatch(/^endpoint_not_allowed: /);
});
