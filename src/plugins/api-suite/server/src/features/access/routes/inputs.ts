import { z } from 'zod';
import { administratorsOnly, requireConsumer } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
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

/** What each access route takes, named in its route config and read by its handler (http/input.ts). */
const keyId = { params: z.object({ id: keyIdParam }), notFound: 'API key not found' } as const;

export const inputs = {
  createKey: routeInput({ before: requireConsumer, body: createKeyBody }),
  listKeys: routeInput({ before: requireConsumer, query: listKeysQuery }),
  rerollKey: routeInput({ before: requireConsumer, ...keyId, body: rerollBody }),
  updateKey: routeInput({ before: administratorsOnly("Only administrators may set a key's own limits"), ...keyId, body: keyLimitsBody }),
  revokeKey: routeInput({ before: requireConsumer, ...keyId }),
  usage: routeInput({ query: usageQuery }),
  usageStream: routeInput({ query: usageStreamQuery }),
  // The body is read after the consumer is found in the database (a missing one is a 404 first).
  updateConsumer: routeInput({
    before: administratorsOnly('Only administrators may grant plans'),
    params: z.object({ userId: userIdParam }),
    notFound: 'Consumer not found',
    body: grantPlanBody,
    deferred: ['body'],
  }),

  adminCreatePlan: routeInput({ body: planBody }),
  adminUpdatePlan: routeInput({ params: z.object({ id: keyIdParam }), notFound: 'Plan not found', body: planUpdateBody }),
  adminKeys: routeInput({ query: adminKeysQuery }),
  // As for updateConsumer, the body is read once the consumer is known to exist.
  adminGrantPlan: routeInput({
    params: z.object({ id: keyIdParam }),
    notFound: 'Consumer not found',
    body: grantPlanBody,
    deferred: ['body'],
  }),
  adminUpdateKey: routeInput({ ...keyId, body: keyLimitsBody }),
  adminIssueKey: routeInput({ body: adminIssueKeyBody }),
  adminRevokeKey: routeInput(keyId),
  adminUsage: routeInput({ query: adminUsageQuery }),
  consumers: routeInput({ query: consumersQuery }),
};
