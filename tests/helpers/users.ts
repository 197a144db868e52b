import crypto from 'node:crypto';
import type { TestApp } from './app';

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  jwt: string;
  consumer_id: string;
}

/**
 * Register a users-permissions user through the public HTTP API and log in. A new consumer is on
 * the default plan (free), which reaches only the public routes; `plan` grants them another as an
 * administrator's grant does, for tests of what the plan lets them use rather than of the plan itself.
 */
export async function registerUser(
  app: TestApp,
  overrides: Partial<Pick<TestUser, 'username' | 'email' | 'password'>> & { plan?: string } = {}
): Promise<TestUser> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const username = overrides.username ?? `user_${suffix}`;
  const email = overrides.email ?? `${username}@example.test`;
  const password = overrides.password ?? `Pw-${suffix}-secret`;
  const registered = await app.request().post('/api/auth/local/register').send({ username, email, password });
  if (registered.status !== 200) throw new Error(`register failed: ${registered.status} ${JSON.stringify(registered.body)}`);
  // Registering signs the user in (no e-mail confirmation here). Logging in again would spend
  // users-permissions' sign-in rate limit, which counts every sign-in from this address together.
  const jwt = registered.body.jwt as string;
  const me = await app.request().get('/api/users/me').set('Authorization', `Bearer ${jwt}`);
  if (me.status !== 200) throw new Error(`users/me failed: ${me.status} ${JSON.stringify(me.body)}`);
  const user = { id: me.body.id, username, email, password, jwt, consumer_id: me.body.consumer_id };
  if (overrides.plan) await grantPlanByService(app, user, overrides.plan);
  return user;
}

/**
 * The grant the administrators' route makes, made through the plugin's service: a user put on a
 * plan here needs no administrator, whose admin-panel session would register the app's super admin
 * first and leave the browser tests no /admin registration form to fill in.
 */
async function grantPlanByService(app: TestApp, user: Pick<TestUser, 'id'>, plan: string): Promise<void> {
  const row = (await app.strapi.db.query('plugin::api-suite.plan').findOne({ where: { name: plan }, select: ['id'] })) as {
    id: number;
  } | null;
  if (!row) throw new Error(`no plan named ${plan}`);
  const consumerPlans = app.strapi.plugin('api-suite').service('consumer-plans') as {
    grant(userId: number, planId: number | null): Promise<void>;
  };
  await consumerPlans.grant(user.id, row.id);
}

const administrators = new WeakMap<TestApp, Promise<TestUser>>();

/** An administrator of this app (one per app), for the routes only administrators may call. */
export function administratorOf(app: TestApp): Promise<TestUser> {
  let admin = administrators.get(app);
  if (!admin) {
    admin = registerUser(app).then((user) => makeAdministrator(app, user));
    administrators.set(app, admin);
  }
  return admin;
}

/**
 * Put a consumer on a plan as an administrator does (`PATCH /api/v1/consumers/{userId}`), so
 * their keys without a plan of their own and their JWT follow it; `null` takes the grant back.
 */
export async function grantPlan(app: TestApp, user: Pick<TestUser, 'id'>, plan: string | null): Promise<void> {
  const admin = await administratorOf(app);
  const plans = (await app.request().get('/api/v1/plans')).body.data as Array<{ id: number; name: string }>;
  const planId = plan === null ? null : plans.find((candidate) => candidate.name === plan)?.id;
  if (planId === undefined) throw new Error(`no plan named ${plan}`);
  const response = await app
    .request()
    .patch(`/api/v1/consumers/${user.id}`)
    .set('Authorization', `Bearer ${admin.jwt}`)
    .send({ plan_id: planId });
  if (response.status !== 200) throw new Error(`plan grant failed: ${response.status} ${JSON.stringify(response.body)}`);
}

/**
 * Give a user the administrator role. In production an editor does this in the admin panel;
 * here it is one admin-API call made with an admin-panel session.
 */
export async function makeAdministrator(app: TestApp, user: TestUser): Promise<TestUser> {
  const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'administrator' } });
  if (!role) throw new Error('the administrator role does not exist');
  const admin = await adminSession(app);
  const response = await app
    .request()
    .put(`/content-manager/collection-types/plugin::users-permissions.user/${await documentIdOf(app, user.id)}`)
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ role: { connect: [{ documentId: role.documentId }] } });
  if (response.status !== 200)
    throw new Error(`could not make ${user.username} an administrator: ${response.status} ${JSON.stringify(response.body)}`);
  return user;
}

export async function documentIdOf(app: TestApp, id: number): Promise<string> {
  const row = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id }, select: ['documentId'] });
  return row.documentId as string;
}

export interface AdminSession {
  token: string;
  email: string;
}

const sessions = new WeakMap<TestApp, Promise<AdminSession>>();

/** The super admin every test app registers first (sign it in with these after a restart). */
export const OWNER = { email: 'owner@example.test', password: 'Owner-password-1' } as const;

/** The admin-panel super admin of this app (registered on first use, as the first visitor of /admin would). */
export function adminSession(app: TestApp): Promise<AdminSession> {
  let session = sessions.get(app);
  if (!session) {
    session = (async () => {
      const { email, password } = OWNER;
      const registered = await app.request().post('/admin/register-admin').send({ firstname: 'Site', lastname: 'Owner', email, password });
      // A browser test registers the owner through the /admin form first (with the same credentials).
      if (registered.status === 400 && registered.body?.error?.message === 'You cannot register a new super admin') {
        const login = await app.request().post('/admin/login').send({ email, password });
        if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${JSON.stringify(login.body)}`);
        return { token: login.body.data.token as string, email };
      }
      if (registered.status !== 200 && registered.status !== 201) {
        throw new Error(`admin registration failed: ${registered.status} ${JSON.stringify(registered.body)}`);
      }
      return { token: registered.body.data.token as string, email };
    })();
    sessions.set(app, session);
  }
  return session;
}

/** A full-access Strapi API token, made through the admin API, for writing content in tests. */
export async function fullAccessToken(app: TestApp): Promise<string> {
  const admin = await adminSession(app);
  const response = await app
    .request()
    .post('/admin/api-tokens')
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ name: `tests-${crypto.randomBytes(3).toString('hex')}`, type: 'full-access', lifespan: null, description: 'tests' });
  if (response.status !== 201) throw new Error(`api token creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.accessKey as string;
}

/** Give the user a role that may create, update and delete articles (keys never write more than their owner's role allows). */
export async function allowArticleWrites(app: TestApp, user: Pick<TestUser, 'id'>): Promise<void> {
  const roles = app.strapi.db.query('plugin::users-permissions.role');
  const writers =
    (await roles.findOne({ where: { type: 'article-writers' } })) ??
    (await roles.create({ data: { name: 'Article writers', type: 'article-writers', description: 'May write articles' } }));
  for (const action of ['create', 'update', 'delete']) {
    const permission = { action: `api::article.article.${action}`, role: writers.id };
    if ((await app.strapi.db.query('plugin::users-permissions.permission').count({ where: permission })) === 0) {
      await app.strapi.db.query('plugin::users-permissions.permission').create({ data: permission });
    }
  }
  await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: user.id }, data: { role: writers.id } });
}
