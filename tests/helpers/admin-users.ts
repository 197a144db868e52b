import crypto from 'node:crypto';
import type { TestApp } from './app';
import { adminSession } from './users';

export interface AdminEditor {
  email: string;
  password: string;
  /** The editor's admin-panel access token. */
  token: string;
  roleId: number;
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
} as const;

/**
 * An admin-panel user on a role of its own holding exactly `actions`, made as a site owner makes
 * one: a role through Settings → Roles, then an invited user who registers with the invitation.
 */
export async function createAdminEditor(app: TestApp, actions: string[]): Promise<AdminEditor> {
  const owner = await adminSession(app);
  const auth = { Authorization: `Bearer ${owner.token}` };
  const suffix = crypto.randomBytes(3).toString('hex');

  const role = await app.request().post('/admin/roles').set(auth).send({ name: `Editor ${suffix}`, description: 'api-suite editors' });
  if (role.status !== 201) throw new Error(`role creation failed: ${role.status} ${JSON.stringify(role.body)}`);
  const roleId = role.body.data.id as number;
  const permissions = await app
    .request()
    .put(`/admin/roles/${roleId}/permissions`)
    .set(auth)
    .send({ permissions: actions.map((action) => ({ action, subject: null, properties: {}, conditions: [] })) });
  if (permissions.status !== 200) throw new Error(`role permissions failed: ${permissions.status} ${JSON.stringify(permissions.body)}`);

  const email = `editor-${suffix}@example.test`;
  const password = `Editor-password-${suffix}1`;
  const invited = await app.request().post('/admin/users').set(auth).send({ firstname: 'Eve', lastname: 'Editor', email, roles: [roleId] });
  if (invited.status !== 201) throw new Error(`admin user creation failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const registered = await app
    .request()
    .post('/admin/register')
    .send({ registrationToken: invited.body.data.registrationToken, userInfo: { firstname: 'Eve', lastname: 'Editor', password } });
  if (registered.status !== 200 && registered.status !== 201) throw new Error(`admin registration failed: ${registered.status} ${JSON.stringify(registered.body)}`);
  return { email, password, token: registered.body.data.token as string, roleId };
}
