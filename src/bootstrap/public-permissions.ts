import type { Core } from '@strapi/strapi';

/** Content types the Public role may read (find and findOne); their controllers limit what is visible. */
export const PUBLIC_READABLE = [
  'api::article.article',
  'api::author.author',
  'api::comment.comment',
  'api::product.product',
  'api::page.page',
];

/**
 * Grant the Public role find and findOne on the host's content types, once: the first boot
 * records that it did so, and an editor who later removes a permission in the admin panel is
 * not overruled at the next restart.
 */
export async function grantPublicReadOnce(strapi: Core.Strapi): Promise<void> {
  const store = strapi.store({ type: 'core', name: 'host' });
  if (await store.get({ key: 'public-permissions-granted' })) return;

  const publicRole = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  if (!publicRole) throw new Error('the users-permissions Public role does not exist');

  const actions = PUBLIC_READABLE.flatMap((uid) => ['find', 'findOne'].map((action) => `${uid}.${action}`));
  const existing = await strapi.db
    .query('plugin::users-permissions.permission')
    .findMany({ where: { role: publicRole.id, action: { $in: actions } }, select: ['action'] });
  const have = new Set(existing.map((permission: { action: string }) => permission.action));
  for (const action of actions.filter((name) => !have.has(name))) {
    await strapi.db.query('plugin::users-permissions.permission').create({ data: { action, role: publicRole.id } });
  }
  await store.set({ key: 'public-permissions-granted', value: true });
}
