import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { input } from '../../../http/input';
import { UIDS } from '../../../constants';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';
import { consumerOf } from '../../../http/consumer';
import { AdministratorsOnlyError } from '../../../http/errors';
import type { PublicKey } from '../services/keys';
import type { NewApiKey } from '../validation/responses';
import { keyCapOf } from '../key-cap';
import { InsufficientScopeError, UnknownPlanError, UnknownUserError } from '../errors';

/** A key just made (issued or rerolled), as the API answers it (docs/access.md): the key itself once, never `revoked_at`. */
function newKeyBody(issued: PublicKey & { key: string }): NewApiKey {
  return {
    id: issued.id,
    name: issued.name,
    key: issued.key,
    key_prefix: issued.key_prefix,
    client_id: issued.client_id,
    plan_id: issued.plan_id,
    user_id: issued.user_id,
    scopes: issued.scopes,
    status: issued.status,
    expires_at: issued.expires_at,
    created_at: issued.created_at,
  };
}

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async create(ctx: Context) {
    const caller = consumerOf(ctx);
    const { body } = input(ctx, inputs.createKey);
    if ((body.plan_id !== undefined || body.user_id !== undefined) && !caller.isAdmin) {
      throw new AdministratorsOnlyError('Only administrators may choose plan_id or user_id');
    }
    const scopes = body.scopes ?? ['read'];
    // A key or token cannot mint a key stronger than itself.
    const missing = scopes.filter((scope) => !caller.scopes.includes(scope));
    if (missing.length > 0) throw new InsufficientScopeError(`The credential in use lacks the scope ${missing.join(', ')}`);
    if (body.plan_id !== undefined && !(await getService(strapi, 'plans').exists(body.plan_id))) {
      throw new UnknownPlanError(body.plan_id);
    }
    if (body.user_id !== undefined && (await strapi.db.query(UIDS.user).count({ where: { id: body.user_id } })) === 0) {
      throw new UnknownUserError(body.user_id);
    }
    const issued = await getService(strapi, 'keys').issue(
      {
        userId: body.user_id ?? caller.userId,
        name: body.name,
        scopes,
        expiresAt: body.expires_at ? new Date(body.expires_at) : undefined,
        planId: body.plan_id,
      },
      { cap: keyCapOf(strapi, caller) }
    );
    ctx.status = 201;
    ctx.body = { data: newKeyBody(issued) };
  },

  async find(ctx: Context) {
    const caller = consumerOf(ctx);
    const { query } = input(ctx, inputs.listKeys);
    const userId = caller.isAdmin ? query.user_id : caller.userId;
    const { data, total } = await getService(strapi, 'keys').list({ userId, page: query.page, limit: query.limit });
    ctx.body = { data, meta: { page: query.page, limit: query.limit, total } };
  },

  /** `POST /api/v1/keys/{id}/reroll`: rotate a key without downtime (docs/access.md#keys-and-plans). */
  async reroll(ctx: Context) {
    const { row, body } = input(ctx, inputs.rerollKey);
    const rerolled = await getService(strapi, 'keys').reroll(row, consumerOf(ctx), body.grace_seconds);
    ctx.status = 201;
    ctx.body = { data: { ...newKeyBody(rerolled), replaces: rerolled.replaces, old_expires_at: rerolled.old_expires_at } };
  },

  /** `PATCH /api/v1/keys/{id}` (administrators): the key's own limits (docs/access.md#keys-and-plans). */
  async update(ctx: Context) {
    const { row, body } = input(ctx, inputs.updateKey);
    ctx.body = { data: await getService(strapi, 'keys').setLimits(row, body) };
  },

  async revoke(ctx: Context) {
    await getService(strapi, 'keys').revoke(input(ctx, inputs.revokeKey).row);
    ctx.status = 204;
    ctx.body = null;
  },
});
