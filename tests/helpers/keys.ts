import type { TestApp } from './app';
import { adminSession, type TestUser } from './users';
import { timePasses } from './wait';

export { administratorOf, grantPlan } from './users';

/** A key of the right shape that no consumer holds: refused as `invalid_api_key`. */
export const UNKNOWN_KEY = `sk_${'x'.repeat(48)}`;

export interface IssuedKey {
  id: number;
  name: string | null;
  key: string;
  key_prefix: string;
  client_id: string;
  plan_id: number;
  user_id: number;
  scopes: Array<'read' | 'write'>;
  status: string;
  expires_at: string | null;
  created_at: string;
}

/** POST /api/v1/keys with the user's JWT (or any other credential given as headers). */
export async function issueKey(app: TestApp, user: TestUser, body: Record<string, unknown> = {}): Promise<IssuedKey> {
  const response = await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${user.jwt}`).send(body);
  if (response.status !== 201) throw new Error(`key issue failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as IssuedKey;
}

export interface PlanInput {
  name: string;
  requests_per_month: number;
  requests_per_minute: number;
  endpoints: string[];
  price_monthly?: number;
  is_default?: boolean;
  currency?: string | null;
  overage_unit_amount?: number | null;
  price_yearly?: number | null;
  trial_days?: number;
}

/** A plan made as an editor makes one: through the admin panel's content manager API. */
export async function createPlan(app: TestApp, plan: PlanInput): Promise<number> {
  const admin = await adminSession(app);
  const response = await app
    .request()
    .post('/content-manager/collection-types/plugin::api-suite.plan')
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ price_monthly: 0, is_default: false, ...plan });
  if (response.status !== 201) throw new Error(`plan creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id as number;
}

export async function planId(app: TestApp, name: string): Promise<number> {
  const response = await app.request().get('/api/v1/plans');
  const plan = (response.body.data as Array<{ id: number; name: string }>).find((candidate) => candidate.name === name);
  if (!plan) throw new Error(`no plan named ${name}`);
  return plan.id;
}

/** Wait until at least `margin` seconds remain in the current clock minute, so a burst stays in one minute. */
export async function awayFromMinuteEdge(marginSeconds = 8): Promise<void> {
  const secondsLeft = 60 - new Date().getUTCSeconds();
  // The minute is the clock's: the time must pass.
  if (secondsLeft < marginSeconds) await timePasses(secondsLeft * 1000 + 200);
}
