import { localFilterRefusal } from '../../src/plugins/api-suite/shared/use-filter-try';
import { checkAgainst, compileOrRefuse } from '../../src/plugins/api-suite/server/src/features/webhooks/subscriptions/filters';
import type { JsonSchema } from '../../src/plugins/api-suite/shared/filters';

/**
 * The forms' own check of a payload filter (admin panel and portal) refuses what the server's
 * filter-test would, in the server's words and at its place, so the form asks the server nothing
 * (and the browser logs no failed request) for a filter the shared check already refuses.
 */
const order = {
  name: 'order.created',
  schema: {
    type: 'object',
    properties: {
      total: { type: 'number' },
      status: { type: 'string', enum: ['pending', 'paid'] },
      created_at: { type: 'string', format: 'date-time' },
    },
    additionalProperties: false,
  } as JsonSchema,
};

/** What the server answers for the filter: its refusal's message and place, or undefined when it fits. */
function serverRefusal(filter: unknown): { message: string; path: string } | undefined {
  try {
    checkAgainst(compileOrRefuse(filter), [order]);
    return undefined;
  } catch (error) {
    const refusal = error as { message: string; details?: { path?: string } };
    return { message: refusal.message, path: String(refusal.details?.path) };
  }
}

it.each([
  ['a field the type never has', { customer: { $eq: 'x' } }],
  ['a number field given a word', { total: { $gt: 'many' } }],
  ['a choice the field does not offer', { status: { $eq: 'shipped' } }],
  ['an operator that does not exist', { total: { $bigger: 3 } }],
  ['a date field given what is not a date', { created_at: { $lt: 'yesterday' } }],
])('refuses %s as the server does, at the same place', (_, filter) => {
  const server = serverRefusal(filter);
  expect(server).toBeDefined();
  const local = localFilterRefusal(filter, order);
  expect(local).toMatchObject({ status: 422, code: 'invalid_filter', message: server?.message });
  expect(local?.fields).toEqual({ [server?.path as string]: server?.message });
});

it('leaves a filter that fits to the server, and one whose type has no schema at hand', () => {
  expect(serverRefusal({ total: { $gte: 100 } })).toBeUndefined();
  expect(localFilterRefusal({ total: { $gte: 100 } }, order)).toBeUndefined();
  expect(localFilterRefusal({ customer: { $eq: 'x' } }, { name: 'order.created' })).toBeUndefined();
});
