import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { awayFromMinuteEdge, createPlan, issueKey } from '../../helpers/keys';
import { redisUrl } from '../../helpers/services';
import { grantPlan, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';

/**
 * Quotas are exact under concurrency: one instance with its own counters, and two instances
 * sharing Redis (the second part runs whenever the run has REDIS_URL, as CI's second pass does).
 */
const N = 30;
let app: TestApp;
let alice: TestUser;
let admin: TestUser;
let planId: number;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app);
  admin = await makeAdministrator(app, await registerUser(app));
  planId = await createPlan(app, { name: 'exact', requests_per_month: 100_000, requests_per_minute: N, endpoints: ['* *'] });
});

afterAll(async () => {
  await app?.close();
});

/** `count` concurrent requests spread over the targets and, in turn, over the credentials (a key, or any headers). */
async function burst(
  targets: Array<() => ReturnType<TestApp['request']>>,
  credentials: string | Array<Record<string, string>>,
  count: number
): Promise<Record<number, number>> {
  const headers = typeof credentials === 'string' ? [{ 'X-API-Key': credentials }] : credentials;
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      targets[i % targets.length]()
        .get('/api/v1/articles')
        .set(headers[i % headers.length])
    )
  );
  const tally: Record<number, number> = {};
  for (const response of responses) tally[response.status] = (tally[response.status] ?? 0) + 1;
  return tally;
}

describe('one instance', () => {
  it(`3N concurrent requests with requests_per_minute N=${N} give exactly N successes and 2N 429s`, async () => {
    const key = await issueKey(app, admin, { plan_id: planId, user_id: alice.id });
    await awayFromMinuteEdge();
    expect(await burst([app.request], key.key, 3 * N)).toEqual({ 200: N, 429: 2 * N });
  });
});

// Registered only with REDIS_URL: without Redis each instance keeps its own counters by design.
if (redisUrl)
  describe('two instances on one Redis', () => {
    let second: Instance;

    beforeAll(async () => {
      second = await startInstance(app);
    });

    afterAll(async () => {
      await second?.stop();
    });

    it('share the quota exactly: 3N requests across both give N successes', async () => {
      // A consumer of its own: Alice's pool on this plan already served the one-instance burst this minute.
      const key = await issueKey(app, admin, { plan_id: planId, user_id: (await registerUser(app)).id });
      await awayFromMinuteEdge();
      expect(await burst([app.request, second.request], key.key, 3 * N)).toEqual({ 200: N, 429: 2 * N });
    });

    it("share one consumer's pool exactly: two keys and a JWT across both give N successes in all", async () => {
      const consumer = await registerUser(app);
      await grantPlan(app, consumer, 'pro');
      const [one, two] = [await issueKey(app, consumer), await issueKey(app, consumer)];
      await awayFromMinuteEdge();
      const credentials: Array<Record<string, string>> = [
        { 'X-API-Key': one.key },
        { 'X-API-Key': two.key },
        { Authorization: `Bearer ${consumer.jwt}` },
      ];
      // pro: 100 a minute, shared by every credential of the consumer, on every instance.
      expect(await burst([app.request, second.request], credentials, 300)).toEqual({ 200: 100, 429: 200 });
    });

    it('refuse a revoked key within a second on both', async () => {
      const key = await issueKey(app, alice);
      // Both instances have the key cached.
      await app.request().get('/api/v1/keys').set('X-API-Key', key.key).expect(200);
      await second.request().get('/api/v1/keys').set('X-API-Key', key.key).expect(200);

      await app.request().delete(`/api/v1/keys/${key.id}`).set('Authorization', `Bearer ${alice.jwt}`).expect(204);
      const revokedAt = Date.now();
      const refusedAfter = (target: () => ReturnType<TestApp['request']>) =>
        eventually(
          async () => {
            const response = await target().get('/api/v1/keys').set('X-API-Key', key.key);
            return response.status === 403 && response.body.error.code === 'key_revoked' ? Date.now() - revokedAt : undefined;
          },
          5_000,
          'the key refused as revoked'
        );
      const [here, there] = await Promise.all([refusedAfter(app.request), refusedAfter(second.request)]);
      expect(here).toBeLessThan(1000);
      expect(there).toBeLessThan(1000);
    });
  });

if (!redisUrl) {
  console.info('[quota.test] REDIS_URL is not set: the two-instance tests run in the PostgreSQL + Redis pass (.ci/run)');
}
