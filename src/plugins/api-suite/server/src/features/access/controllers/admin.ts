import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { UIDS } from '../../../constants';
import { input } from '../../../http/input';
import { streamEvents } from '../../../http/sse';
import { getService } from '../../../utils';
import { ALL_KEYS } from '../services/usage';
import type { AdminUsage } from '../validation/responses';
import { describeConsumers } from '../plan-holdings';
import { adminKeyList } from '../admin-key-list';
import { inputs } from '../routes/inputs';
import { NotFoundError } from '../../../errors';
import { NoSuchUserOrPlanError, PlanNameTakenError, YearlyPriceInvalidError } from '../errors';

/** The live chart's window: the last hour, a point a minute. */
const USAGE_WINDOW_MS = 3_600_000;

/**
 * `/api-suite/access/*` and `/api-suite/consumers` for the admin panel: plans, keys issued for a
 * chosen user (the key shown once), revocation, and the last hour's usage, as JSON and as a
 * stream. The access services do the work.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const plans = () => getService(strapi, 'plans');
  const keys = () => getService(strapi, 'keys');

  const assertNameFree = async (name: string | undefined, exceptId?: number) => {
    if (name === undefined) return;
    const existing = await plans().findByName(name);
    if (existing && existing.id !== exceptId) {
      throw new PlanNameTakenError(name);
    }
  };

  /** A yearly price needs a monthly one: the plans service's rule, with the field named for the admin panel's form. */
  const assertYearlyPriced = async (body: { price_monthly?: number; price_yearly?: number | null }, id?: number) => {
    const problem = await plans().yearlyPriceProblem(body, id);
    if (problem) throw new YearlyPriceInvalidError(problem);
  };

  const usage = async (keyId: number | undefined): Promise<AdminUsage> => {
    const to = new Date();
    const from = new Date(to.getTime() - USAGE_WINDOW_MS);
    const service = getService(strapi, 'usage');
    const activity = await service.activity({ scope: keyId === undefined ? ALL_KEYS : { keyId }, from, to, granularity: 'minute' });
    const entry = keyId === undefined ? null : await keys().findById(keyId);
    const pool = entry?.user
      ? await service.month({ userId: entry.user.id, isAdmin: entry.user.isAdmin }, entry)
      : { month: null, plan: null };
    return { ...activity, ...pool, key_id: keyId ?? null, from: from.toISOString(), to: to.toISOString() };
  };

  const usageKey = async (ctx: Context): Promise<number | undefined> => {
    const { query } = input(ctx, inputs.adminUsage);
    if (query.key_id !== undefined && !(await keys().findById(query.key_id))) throw new NotFoundError('API key');
    return query.key_id;
  };

  return {
    /** Plans as stored, each with what it holds now: its consumers, and its keys by the rule the access checks apply. */
    async plans(ctx: Context) {
      ctx.body = { data: await plans().listStored() };
    },

    async createPlan(ctx: Context) {
      const { body } = input(ctx, inputs.adminCreatePlan);
      await assertNameFree(body.name);
      await assertYearlyPriced(body);
      ctx.status = 201;
      ctx.body = { data: await plans().create(body) };
    },

    async updatePlan(ctx: Context) {
      const { row, body } = input(ctx, inputs.adminUpdatePlan);
      await assertNameFree(body.name, row.id);
      await assertYearlyPriced(body, row.id);
      // Null only when it went in the meantime.
      const updated = await plans().update(row.id, body);
      if (!updated) throw new NotFoundError('Plan');
      ctx.body = { data: updated };
    },

    /** Every key (never the key itself), newest first, with its owner, the owner's plan and the key's. */
    async keys(ctx: Context) {
      const { query } = input(ctx, inputs.adminKeys);
      const { data, total } = await adminKeyList(strapi, { userId: query.user_id, page: query.page, limit: query.limit });
      ctx.body = { data, meta: { page: query.page, limit: query.limit, total } };
    },

    /** Grant a consumer a plan (null takes it back): their keys without a plan of their own follow it, on every instance at once. */
    async grantPlan(ctx: Context) {
      const { row, body } = input(ctx, inputs.adminGrantPlan);
      const { userId } = row;
      if (body.plan_id !== null && !(await plans().exists(body.plan_id))) {
        throw new NoSuchUserOrPlanError(['plan_id']);
      }
      ctx.body = { data: await getService(strapi, 'consumer-plans').grantAndDescribe(userId, body.plan_id) };
    },

    /** A key's own limits (null: the plan's); its quotas follow from its next request. */
    async updateKey(ctx: Context) {
      const { row, body } = input(ctx, inputs.adminUpdateKey);
      ctx.body = { data: await keys().setLimits(row, body) };
    },

    /**
     * Issue a key for a user, on its owner's plan or an explicit one. The key is in this answer and nowhere else: only its hash
     * is stored, so the admin panel shows it once.
     */
    async issueKey(ctx: Context) {
      const { body } = input(ctx, inputs.adminIssueKey);
      const missing: Array<'user_id' | 'plan_id'> = [];
      if ((await strapi.db.query(UIDS.user).count({ where: { id: body.user_id } })) === 0) missing.push('user_id');
      if (body.plan_id !== undefined && !(await plans().exists(body.plan_id))) missing.push('plan_id');
      if (missing.length > 0) throw new NoSuchUserOrPlanError(missing);
      const issued = await keys().issue({
        userId: body.user_id,
        planId: body.plan_id,
        name: body.name,
        scopes: body.scopes ?? ['read'],
        expiresAt: body.expires_at ? new Date(body.expires_at) : undefined,
      });
      ctx.status = 201;
      ctx.body = { data: issued };
    },

    async revokeKey(ctx: Context) {
      await keys().revoke(input(ctx, inputs.adminRevokeKey).row);
      ctx.status = 204;
      ctx.body = null;
    },

    /** The last hour, a point a minute, for every key or `key_id`. */
    async usage(ctx: Context) {
      ctx.body = { data: await usage(await usageKey(ctx)) };
    },

    /**
     * The same as Server-Sent Events, every `interval` seconds (5 by default). Authenticated like
     * every admin route, by the admin session's bearer token: the admin panel reads it with fetch,
     * since EventSource cannot send that header.
     */
    async usageStream(ctx: Context) {
      const keyId = await usageKey(ctx);
      const { interval } = input(ctx, inputs.adminUsage).query;
      streamEvents(ctx, {
        event: 'usage',
        intervalSeconds: interval,
        first: await usage(keyId),
        next: () => usage(keyId),
        onError: (error) => strapi.log.warn(`[api-suite] admin usage stream: ${error.message}`),
      });
    },

    /** Consumers (search by username or e-mail) with the plan each is on and why, their grant and their active keys: one query per kind, not per row. */
    async planConsumers(ctx: Context) {
      const { query } = input(ctx, inputs.consumers);
      const { data, total } = await getService(strapi, 'consumers').search(query.q, query.page, query.limit);
      ctx.body = {
        data: await describeConsumers(strapi, data, await plans().list()),
        meta: { page: query.page, limit: query.limit, total },
      };
    },

    /** Users-permissions users, for the pickers that choose a key's or a scraper's owner. */
    async consumers(ctx: Context) {
      const { query } = input(ctx, inputs.consumers);
      const { data, total } = await getService(strapi, 'consumers').search(query.q, query.page, query.limit);
      ctx.body = { data, meta: { page: query.page, limit: query.limit, total } };
    },
  };
};
