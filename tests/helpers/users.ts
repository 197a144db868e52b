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

/** Register a users-permissions user through the public HTTP API and log in. */
export async function registerUser(app: TestApp, overrides: Partial<Pick<TestUser, 'username' | 'email' | 'password'>> = {}): Promise<TestUser> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const username = overrides.username ?? `user_${suffix}`;
  const email = overrides.email ?? `${username}@example.test`;
  const password = overrides.password ?? `Pw-${suffix}-secret`;
  const registered = await app.request().post('/api/auth/local/register').send({ username, email, password });
  if (registered.status !== 200) throw new Error(`register failed: ${registered.status} ${JSON.stringify(registered.body)}`);
  const login = await app.request().post('/api/auth/local').send({ identifier: email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  const me = await app.request().get('/api/users/me').set('Authorization', `Bearer ${login.body.jwt}`);
  if (me.status !== 200) throw new Error(`users/me failed: ${me.status} ${JSON.stringify(me.body)}`);
  return { id: me.body.id, username, email, password, jwt: login.body.jwt, consumer_id: me.body.consumer_id };
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
  if (response.status !== 200) throw new Error(`could not make ${user.username} an administrator: ${response.status} ${JSON.stringify(response.body)}`);
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
      const registered = await app
        .request()
        .post('/admin/register-admin')
        .send({ firstname: 'Site', lastname: 'Owner', email, password });
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
