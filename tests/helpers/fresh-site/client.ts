import crypto from 'node:crypto';
import type { FreshSite } from './index';

/**
 * What a test does to the fresh site, from outside and over HTTP only (the site runs in a process
 * of its own): the site owner's admin-panel session, users-permissions users, administrators,
 * plan grants and content written through the Content Manager's API.
 */

export interface SiteUser {
  id: number;
  documentId: string;
  username: string;
  email: string;
  password: string;
  /** The users-permissions access token (`jwtManagement: 'refresh'`, as a fresh 5.54 site has it). */
  jwt: string;
}

/** The admin-panel super admin, registered as the first visitor of /admin would register. */
export const OWNER = { firstname: 'Site', lastname: 'Owner', email: 'owner@example.test', password: 'Owner-password-1' } as const;

const ownerTokens = new WeakMap<FreshSite, Promise<string>>();

/** The site owner's admin-panel access token (the owner is registered on first use). */
export function ownerToken(site: FreshSite): Promise<string> {
  let token = ownerTokens.get(site);
  if (!token) {
    token = (async () => {
      const registered = await site.request().post('/admin/register-admin').send(OWNER);
      if (registered.status !== 200 && registered.status !== 201) {
        throw new Error(`admin registration failed: ${registered.status} ${JSON.stringify(registered.body)}`);
      }
      return registered.body.data.token as string;
    })();
    ownerTokens.set(site, token);
  }
  return token;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A users-permissions user registered through `POST /api/auth/local/register` (signed in by it). */
export async function registerUser(site: FreshSite): Promise<SiteUser> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const username = `cook_${suffix}`;
  const email = `${username}@example.test`;
  const password = `Pw-${suffix}-secret`;
  const response = await site.request().post('/api/auth/local/register').send({ username, email, password });
  if (response.status !== 200) throw new Error(`register failed: ${response.status} ${JSON.stringify(response.body)}`);
  const { jwt, user } = response.body as { jwt: string; user: { id: number; documentId: string } };
  return { id: user.id, documentId: user.documentId, username, email, password, jwt };
}

/** Give a user the plugin's `administrator` role, as an editor does in the admin panel. */
export async function makeAdministrator(site: FreshSite, user: SiteUser): Promise<SiteUser> {
  const token = await ownerToken(site);
  const roles = await site.request().get('/users-permissions/roles').set(bearer(token));
  const role = (roles.body?.roles as Array<{ type: string; id: number; documentId: string }> | undefined)?.find(
    (r) => r.type === 'administrator'
  );
  if (!role) throw new Error(`no administrator role: ${roles.status} ${JSON.stringify(roles.body)}`);
  const response = await site
    .request()
    .put(`/content-manager/collection-types/plugin::users-permissions.user/${user.documentId}`)
    .set(bearer(token))
    // As the admin panel sends it: Strapi 5.30's Content Manager also asks for the id and a `disconnect`.
    .send({ role: { connect: [{ id: role.id, documentId: role.documentId }], disconnect: [] } });
  if (response.status !== 200)
    throw new Error(`could not make ${user.username} an administrator: ${response.status} ${JSON.stringify(response.body)}`);
  return user;
}

const administrators = new WeakMap<FreshSite, Promise<SiteUser>>();

/** A users-permissions administrator of this site (one per site), for the routes only administrators may call. */
export function administratorOf(site: FreshSite): Promise<SiteUser> {
  let administrator = administrators.get(site);
  if (!administrator) {
    administrator = registerUser(site).then((user) => makeAdministrator(site, user));
    administrators.set(site, administrator);
  }
  return administrator;
}

export async function planIdOf(site: FreshSite, name: string): Promise<number> {
  const response = await site.request().get('/api/v1/plans');
  const plan = (response.body?.data as Array<{ id: number; name: string }> | undefined)?.find((candidate) => candidate.name === name);
  if (!plan) throw new Error(`no plan named ${name}: ${response.status} ${JSON.stringify(response.body)}`);
  return plan.id;
}

/** Put a consumer on a plan as an administrator does: `PATCH /api/v1/consumers/{userId}`. */
export async function grantPlan(site: FreshSite, user: Pick<SiteUser, 'id'>, planId: number): Promise<void> {
  const administrator = await administratorOf(site);
  const response = await site.request().patch(`/api/v1/consumers/${user.id}`).set(bearer(administrator.jwt)).send({ plan_id: planId });
  if (response.status !== 200) throw new Error(`plan grant failed: ${response.status} ${JSON.stringify(response.body)}`);
}

/** A key of the consumer's own (`POST /api/v1/keys` with their JWT). */
export async function issueKey(site: FreshSite, user: SiteUser): Promise<string> {
  const response = await site.request().post('/api/v1/keys').set(bearer(user.jwt)).send({ name: 'fresh-site' });
  if (response.status !== 201) throw new Error(`key issue failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.key as string;
}

const collection = (uid: string) => `/content-manager/collection-types/${uid}`;

/** Create an entry as an editor does in the Content Manager (a draft, for types with draft & publish). */
export async function createEntry(
  site: FreshSite,
  uid: string,
  data: Record<string, unknown>
): Promise<{ id: number; documentId: string }> {
  const response = await site
    .request()
    .post(collection(uid))
    .set(bearer(await ownerToken(site)))
    .send(data);
  if (response.status !== 201) throw new Error(`creating ${uid} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as { id: number; documentId: string };
}

export async function publishEntry(site: FreshSite, uid: string, documentId: string): Promise<void> {
  const response = await site
    .request()
    .post(`${collection(uid)}/${documentId}/actions/publish`)
    .set(bearer(await ownerToken(site)))
    .send({});
  if (response.status !== 200)
    throw new Error(`publishing ${uid} ${documentId} failed: ${response.status} ${JSON.stringify(response.body)}`);
}

export async function deleteEntry(site: FreshSite, uid: string, documentId: string): Promise<void> {
  const response = await site
    .request()
    .delete(`${collection(uid)}/${documentId}`)
    .set(bearer(await ownerToken(site)));
  if (response.status !== 200) throw new Error(`deleting ${uid} ${documentId} failed: ${response.status} ${JSON.stringify(response.body)}`);
}
