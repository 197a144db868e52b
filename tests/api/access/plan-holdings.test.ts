import { startApp, type TestApp } from '../../helpers/app';
import { adminAuth } from '../../helpers/admin-users';
import { issueKey, planId } from '../../helpers/keys';
import { adminSession, registerUser, type TestUser } from '../../helpers/users';

/**
 * What a newcomer meets first: the demo consumer (seeded with the demo data, on the pro plan),
 * the admin panel's Consumers list (each consumer's plan and why) and the Plans tab's counts,
 * which follow the access model's rule (a key without a plan of its own follows its owner's).
 */
let app: TestApp;
let owner: string;
let alice: TestUser;
let bob: TestUser;

const as = adminAuth;

interface ListedConsumer {
  id: number;
  email: string;
  plan: { id: number; name: string; source: string };
  granted: { id: number; name: string } | null;
  keys: number;
}

interface ListedPlan {
  id: number;
  name: string;
  keys: number;
  consumers: number;
}

beforeAll(async () => {
  app = await startApp({ env: { SEED_DEMO_DATA: 'true' } });
  owner = (await adminSession(app)).token;
  alice = await registerUser(app, { plan: 'pro' });
  bob = await registerUser(app);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('the demo consumer', () => {
  it('signs in with the credentials the README gives, on the pro plan granted', async () => {
    const login = await app.request().post('/api/auth/local').send({ identifier: 'demo@example.com', password: 'demo-password-1' });
    expect(login.status).toBe(200);
    const listed = await app.request().get('/api-suite/access/consumers').query({ q: 'demo@example.com' }).set(as(owner));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ email: 'demo@example.com', plan: expect.objectContaining({ name: 'pro', source: 'grant' }) }),
    ]);
  });
});

describe('consumers and what each plan holds', () => {
  it('lists consumers with the plan each is on, why, and their active keys', async () => {
    await issueKey(app, alice);
    await issueKey(app, alice);
    await issueKey(app, bob);
    const response = await app.request().get('/api-suite/access/consumers').query({ q: alice.username }).set(as(owner));
    expect(response.status).toBe(200);
    const [listed] = response.body.data as ListedConsumer[];
    expect(listed).toMatchObject({ id: alice.id, plan: { name: 'pro', source: 'grant' }, granted: { name: 'pro' }, keys: 2 });

    const bobs = (await app.request().get('/api-suite/access/consumers').query({ q: bob.email }).set(as(owner))).body
      .data as ListedConsumer[];
    expect(bobs[0]).toMatchObject({ plan: { name: 'free', source: 'default' }, granted: null, keys: 1 });
  });

  it("counts a key that follows its owner on its owner's plan, and every consumer on theirs", async () => {
    const before = (await app.request().get('/api-suite/access/plans').set(as(owner))).body.data as ListedPlan[];
    const count = (plans: ListedPlan[], name: string) => plans.find((plan) => plan.name === name) as ListedPlan;
    const carol = await registerUser(app, { plan: 'pro' });
    await issueKey(app, carol);
    // A key issued on a plan of its own counts there, whoever owns it.
    const issued = await app
      .request()
      .post('/api-suite/access/keys')
      .set(as(owner))
      .send({ user_id: carol.id, plan_id: await planId(app, 'enterprise') });
    expect(issued.status).toBe(201);

    const after = (await app.request().get('/api-suite/access/plans').set(as(owner))).body.data as ListedPlan[];
    expect(count(after, 'pro').keys - count(before, 'pro').keys).toBe(1);
    expect(count(after, 'pro').consumers - count(before, 'pro').consumers).toBe(1);
    expect(count(after, 'enterprise').keys - count(before, 'enterprise').keys).toBe(1);
    expect(count(after, 'pro').keys).toBeGreaterThanOrEqual(3); // alice's two and carol's
    expect(count(after, 'free').keys).toBeGreaterThanOrEqual(1); // bob's, on the default plan
  });
});
