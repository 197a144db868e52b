import crypto from 'node:crypto';
import type { TestApp } from './app';
import { adminSession } from './users';

export interface AdminEditor {
  email: string;
  password: string;
  /** The editor's admin-panel access token. */
  token: string;
  roleId: number;
  /** The admin user's id (what `createdBy` of the entries it makes holds). */
  userId: number;
}

/** The api-suite admin permissions (Settings → Roles → Plugins → API Suite). */
export const API_SUITE_ACTIONS = {
  webhooksRead: 'plugin::api-suite.webhooks.read',
  webhooksManage: 'plugin::api-suite.webhooks.manage',
  scrapersRead: 'plugin::api-suite.scrapers.read',
  scrapersManage: 'plugin::api-suite.scrapers.manage',
  accessRead: 'plugin::api-suite.access.read',
  accessManage: 'plugin::api-suite.access.manage',
  salesRead: 'plugin::api-suite.sales.read',
  salesManage: 'plugin::api-suite.sales.manage',
} as const;

/**
 * One permission of a role as Settings → Roles sends it: an action alone (plugin actions), or a
 * Content Manager action on a content type with the fields it reaches.
 */
export type RolePermission = string | { action: string; subject: string; fields?: string[] };

/**
 * An admin-panel user on a role of its own holding exactly `permissions`, made as a site owner
 * makes one: a role through Settings → Roles, then an invited user who registers with the invitation.
 */
export async function createAdminEditor(app: TestApp, permissions: RolePermission[]): Promise<AdminEditor> {
  const owner = await adminSession(app);
  const auth = { Authorization: `Bearer ${owner.token}` };
  const suffix = crypto.randomBytes(3).toString('hex');

  const role = await app
    .request()
    .post('/admin/roles')
    .set(auth)
    .send({ name: `Editor ${suffix}`, description: 'api-suite editors' });
  if (role.status !== 201) throw new Error(`role creation failed: ${role.status} ${JSON.stringify(role.body)}`);
  const roleId = role.body.data.id as number;
  const assigned = await app
    .request()
    .put(`/admin/roles/${roleId}/permissions`)
    .set(auth)
    .send({ permissions: permissions.map(toRolePermission) });
  if (assigned.status !== 200) throw new Error(`role permissions failed: ${assigned.status} ${JSON.stringify(assigned.body)}`);
  return createAdminUser(app, roleId);
}

/** An admin-panel user on an existing role (such as Strapi's own Author or Editor), invited and registered. */
export async function createAdminUser(app: TestApp, roleId: number): Promise<AdminEditor> {
  const owner = await adminSession(app);
  const suffix = crypto.randomBytes(3).toString('hex');
  const email = `editor-${suffix}@example.test`;
  const password = `Editor-password-${suffix}1`;
  const invited = await app
    .request()
    .post('/admin/users')
    .set({ Authorization: `Bearer ${owner.token}` })
    .send({ firstname: 'Eve', lastname: 'Editor', email, roles: [roleId] });
  if (invited.status !== 201) throw new Error(`admin user creation failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const registered = await app
    .request()
    .post('/admin/register')
    .send({ registrationToken: invited.body.data.registrationToken, userInfo: { firstname: 'Eve', lastname: 'Editor', password } });
  if (registered.status !== 200 && registered.status !== 201)
    throw new Error(`admin registration failed: ${registered.status} ${JSON.stringify(registered.body)}`);
  return { email, password, token: registered.body.data.token as string, roleId, userId: invited.body.data.id as number };
}

/** Sign an existing admin user in again (after a restart, say) and return a fresh token. */
export async function adminLogin(app: TestApp, email: string, password: string): Promise<string> {
  const response = await app.request().post('/admin/login').send({ email, password });
  if (response.status !== 200) throw new Error(`admin login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.token as string;
}

function toRolePermission(permission: RolePermission) {
  if (typeof permission === 'string') return { action: permission, subject: null, properties: {}, conditions: [] };
  return {
    action: permission.action,
    subject: permission.subject,
    properties: permission.fields ? { fields: permission.fields } : {},
    conditions: [],
  };
}

/** An admin-panel user who may read every page of the plugin and change nothing. */
export function createPluginReader(app: TestApp): Promise<AdminEditor> {
  return createAdminEditor(app, [
    API_SUITE_ACTIONS.webhooksRead,
    API_SUITE_ACTIONS.scrapersRead,
    API_SUITE_ACTIONS.accessRead,
    API_SUITE_ACTIONS.salesRead,
  ]);
}

/** The header of an admin-panel session's requests. */
export const adminAuth = (token: string) => ({ Authorization: `Bearer ${token}` });
