import { Redis } from 'ioredis';
import { Client } from 'pg';
import net from 'node:net';
import { DependencyUnavailableError, unavailableDependency } from '../../src/plugins/api-suite/server/src/dependencies';
import { dependencyRefusal, faultStatus, nestedErrorBody } from '../../src/plugins/api-suite/server/src/http/errors';

/**
 * Which faults say that the database or Redis is away (answered 503, waited out by background
 * work) and which are bugs (500). The faults are the real clients' own: a pg client and an
 * ioredis client pointed at a port where nothing listens, and one whose server goes away.
 */
describe('faults of the database and Redis', () => {
  let closedPort: number;

  beforeAll(async () => {
    // A port that was just free: connecting to it is refused.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closedPort = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("names the database for pg's refused connection", async () => {
    const client = new Client({ host: '127.0.0.1', port: closedPort, user: 'nobody', database: 'none', connectionTimeoutMillis: 2000 });
    const error = await client.connect().then(
      () => undefined,
      (caught: unknown) => caught
    );
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(unavailableDependency(error)).toBe('database');
  });

  it('names the database for a connection cut under a query, for a server shutting down, and for a pool timeout', () => {
    expect(unavailableDependency(new Error('Connection terminated unexpectedly'))).toBe('database');
    // As knex words it: the statement first.
    expect(
      unavailableDependency(new Error('select "u"."id" from "up_users" as "u" where "u"."id" = $1 - Connection terminated unexpectedly'))
    ).toBe('database');
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(unavailableDependency(shutdown)).toBe('database');
    expect(unavailableDependency(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe('database');
    expect(unavailableDependency(Object.assign(new Error('x'), { code: '08006' }))).toBe('database');
    const timeout = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
      name: 'KnexTimeoutError',
    });
    expect(unavailableDependency(timeout)).toBe('database');
    // Wrapped, as a failed batch reports its first failure.
    expect(unavailableDependency(new Error('2 of 5 deliveries could not be recorded', { cause: shutdown }))).toBe('database');
    expect(unavailableDependency(new AggregateError([new Error('other'), shutdown]))).toBe('database');
  });

  it('names Redis for what ioredis rejects commands with while it is away', async () => {
    const failFast = new Redis({
      host: '127.0.0.1',
      port: closedPort,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    const refused = await failFast.get('x').then(
      () => undefined,
      (caught: unknown) => caught
    );
    expect(unavailableDependency(refused)).toBe('redis');
    failFast.disconnect();

    const retrying = new Redis({ host: '127.0.0.1', port: closedPort, maxRetriesPerRequest: 1, retryStrategy: () => 10 });
    retrying.on('error', () => undefined);
    const exhausted = await retrying.get('x').then(
      () => undefined,
      (caught: unknown) => caught
    );
    expect((exhausted as Error).name).toBe('MaxRetriesPerRequestError');
    expect(unavailableDependency(exhausted)).toBe('redis');
    retrying.disconnect();
  });

  it('names nothing for a bug, a constraint or a refusal of the database', () => {
    expect(unavailableDependency(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    expect(unavailableDependency(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBeNull();
    expect(unavailableDependency(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBeNull();
    expect(unavailableDependency(Object.assign(new Error('permission denied'), { code: '42501' }))).toBeNull();
    expect(unavailableDependency('Connection terminated')).toBeNull();
    expect(unavailableDependency(null)).toBeNull();
  });

  it('answers 503 dependency_unavailable with Retry-After, never 500, in the route family shape', () => {
    const refusal = dependencyRefusal(new Error('Connection terminated unexpectedly'));
    expect(refusal?.status).toBe(503);
    expect(refusal?.headers).toEqual({ 'Retry-After': '5' });
    expect(nestedErrorBody(refusal!)).toEqual({
      error: { code: 'dependency_unavailable', message: 'The database is unavailable for a moment: try again shortly' },
    });
    expect(faultStatus(new Error('Connection terminated unexpectedly'))).toBe(503);
    expect(faultStatus(new TypeError('a bug'))).toBe(500);
    expect(dependencyRefusal(new TypeError('a bug'))).toBeUndefined();
    const own = new DependencyUnavailableError(
      'redis',
      'The count of open usage streams is unavailable for a moment (Redis): try again shortly'
    );
    expect(dependencyRefusal(own)?.message).toBe('The count of open usage streams is unavailable for a moment (Redis): try again shortly');
  });
});
