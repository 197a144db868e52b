import type { Context } from 'koa';
import { consumerOf } from '../../src/plugins/api-suite/server/src/http/consumer';
import type { Principal } from '../../src/plugins/api-suite/server/src/http/principal';
import { ApiError } from '../../src/plugins/api-suite/server/src/http/errors';

/** `consumerOf`: the consumer a route acts for, with the ids such a route relies on. */
const calling = (principal: Principal | null): Context => ({ state: { apiSuite: { principal } } }) as unknown as Context;

const principal = (overrides: Partial<Principal>): Principal => ({
  kind: 'key',
  userId: 7,
  consumerId: '2f1c0e8a-7d1b-4c55-9a53-0d4a2c7f9e11',
  isAdmin: false,
  scopes: ['read'],
  keyId: 3,
  ...overrides,
});

function refusalOf(run: () => unknown): { status: number; code: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('consumerOf', () => {
  it("gives the consumer's user id and consumer id, typed as present", () => {
    const consumer = consumerOf(calling(principal({})));
    // Typed string and number (tests/tsconfig.json checks it): the routes that own resources use them without a cast.
    const consumerId: string = consumer.consumerId;
    const userId: number = consumer.userId;
    expect([consumerId, userId]).toEqual(['2f1c0e8a-7d1b-4c55-9a53-0d4a2c7f9e11', 7]);
  });

  it('refuses the shared key, which acts for no consumer, and a request the access gate did not identify', () => {
    expect(refusalOf(() => consumerOf(calling(principal({ kind: 'shared', userId: null, consumerId: null }))))).toEqual({
      status: 403,
      code: 'consumer_required',
    });
    expect(refusalOf(() => consumerOf(calling(null)))).toEqual({ status: 401, code: 'api_key_required' });
  });

  it('refuses a user without a consumer id rather than handing routes a null one', () => {
    expect(refusalOf(() => consumerOf(calling(principal({ consumerId: null }))))).toEqual({ status: 403, code: 'consumer_required' });
  });
});
