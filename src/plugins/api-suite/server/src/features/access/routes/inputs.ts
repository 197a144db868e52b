import type { Context } from 'koa';
import { z } from 'zod';
import { administratorsOnly, consumerOf, requireConsumer } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
import { rowIdParam } from '../../../http/validation';
import { ADMIN_PANEL, consumerFor, keyFor, planFor, type KeyViewer } from '../reach';
import {
  adminIssueKeyBody,
  adminKeysQuery,
  adminUsageQuery,
  consumersQuery,
  createKeyBody,
  grantPlanBody,
  keyIdParam,
  keyLimitsBody,
  listKeysQuery,
  planBody,
  planUpdateBody,
  rerollBody,
  usageQuery,
  usageStreamQuery,
  userIdParam,
} from '../validation';

const keyParams = z.object({ id: keyIdParam });

/** The routes on one key: its id (a bad one is a missing key), and the key loaded as `viewer` reaches it. */
const oneKey = (viewer: (ctx: Context) => KeyViewer) =>
  ({
    params: keyParams,
    notFound: 'API key',
    load: (ctx: Context, params: { id: number }) => keyFor(strapi, params.id, viewer(ctx)),
  }) as const;

const ownKey = oneKey(consumerOf);
const anyKey = oneKey(() => ADMIN_PANEL);

/**
 * What each access route takes, named in its route config and read by its handler
 * (http/input.ts). A route on one key, plan or consumer loads it (`load`) before its body is
 * read, so a missing one is a 404 whatever the body holds.
 */
export const inputs = {
  createKey: routeInput({ before: requireConsumer, body: createKeyBody }),
  listKeys: routeInput({ before: requireConsumer, query: listKeysQuery }),
  rerollKey: routeInput({ before: requireConsumer, ...ownKey, body: rerollBody }),
  updateKey: routeInput({ before: administratorsOnly("Only administrators may set a key's own limits"), ...ownKey, body: keyLimitsBody }),
  revokeKey: routeInput({ before: requireConsumer, ...ownKey }),
  usage: routeInput({ query: usageQuery }),
  usageStream: routeInput({ query: usageStreamQuery }),
  updateConsumer: routeInput({
    before: administratorsOnly('Only administrators may grant plans'),
    params: z.object({ userId: userIdParam }),
    notFound: 'Consumer',
    load: (_ctx: Context, params: { userId: number }) => consumerFor(strapi, params.userId),
    body: grantPlanBody,
  }),

  adminCreatePlan: routeInput({ body: planBody }),
  adminUpdatePlan: routeInput({
    params: z.object({ id: rowIdParam }),
    notFound: 'Plan',
    load: (_ctx: Context, params: { id: number }) => planFor(strapi, params.id),
    body: planUpdateBody,
  }),
  adminKeys: routeInput({ query: adminKeysQuery }),
  adminGrantPlan: routeInput({
    params: z.object({ id: userIdParam }),
    notFound: 'Consumer',
    load: (_ctx: Context, params: { id: number }) => consumerFor(strapi, params.id),
    body: grantPlanBody,
  }),
  adminUpdateKey: routeInput({ ...anyKey, body: keyLimitsBody }),
  adminIssueKey: routeInput({ body: adminIssueKeyBody }),
  adminRevokeKey: routeInput(anyKey),
  adminUsage: routeInput({ query: adminUsageQuery }),
  consumers: routeInput({ query: consumersQuery }),
};
