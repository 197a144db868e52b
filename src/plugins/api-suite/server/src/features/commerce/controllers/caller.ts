import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';
import type { Principal } from '../../access/services/access';
import { UserTokenRequiredError } from '../errors';

/**
 * The users-permissions user behind `Authorization: Bearer <jwt>` (checkout and the reports take
 * user JWTs only): 401 without one, or when it does not verify, names a missing or blocked user.
 */
export async function userOf(strapi: Core.Strapi, ctx: Context): Promise<Principal & { userId: number }> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  if (!bearer) throw new UserTokenRequiredError();
  const principal = await getService(strapi, 'access').userFromJwt(bearer[1]);
  return principal as Principal & { userId: number };
}
