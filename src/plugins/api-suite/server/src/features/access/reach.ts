import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import { NotFoundError } from '../../errors';
import { getService } from '../../utils';
import type { KeyRow } from './key-rows';

/**
 * What the access routes load from their path (routes/inputs.ts), before their body is read:
 * outside the controllers, so the route inputs can name them without a cycle.
 */

/** Who reaches which key: a consumer their own, an administrator (and the admin panel) every one. */
export interface KeyViewer {
  userId: number;
  isAdmin: boolean;
}

/** The admin panel acts as an administrator of the API: it reaches every key. */
export const ADMIN_PANEL: KeyViewer = { userId: 0, isAdmin: true };

/** The key `id` with its owner and plan, if `viewer` may reach it; any other is 404 API key not found. */
export function keyFor(strapi: Core.Strapi, id: number, viewer: KeyViewer): Promise<KeyRow> {
  return getService(strapi, 'keys').reachable(id, viewer);
}

/** The plan `id`, or 404 Plan not found. */
export async function planFor(strapi: Core.Strapi, id: number): Promise<{ id: number }> {
  if (!(await getService(strapi, 'plans').exists(id))) throw new NotFoundError('Plan');
  return { id };
}

/** The consumer (users-permissions user) `userId`, or 404 Consumer not found. */
export async function consumerFor(strapi: Core.Strapi, userId: number): Promise<{ userId: number }> {
  if ((await strapi.db.query(UIDS.user).count({ where: { id: userId } })) === 0) throw new NotFoundError('Consumer');
  return { userId };
}
