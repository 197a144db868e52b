/**
 * The services the plugin cannot work without for a moment: the database and Redis. Their faults
 * (a refused connection, a connection cut mid-query, a Redis that is reconnecting) are not bugs of
 * the request that met them: the request is answered 503 with `Retry-After` in its route's own
 * shape, never 500, and background work waits and tries again rather than giving up
 * (docs/operations.md#when-redis-or-the-database-goes-away).
 */
export type Dependency = 'database' | 'redis';

/** Thrown where a dependency is known to be away, and answering would mean guessing (a shared counter that cannot be read). */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: Dependency,
    message: string = unavailableMessage(dependency)
  ) {
    super(message);
    this.name = 'DependencyUnavailableError';
  }
}

/**
 * Follows a Redis client (ioredis) and answers whether it is away: it was connected once and is
 * not now, so a command would only wait for it or fail. A client still making its first
 * connection is not away: its commands wait in its queue until it is connected.
 */
export function followRedis(client: { status: string; on(event: 'ready', listener: () => void): unknown }): () => boolean {
  let connected = client.status === 'ready';
  client.on('ready', () => {
    connected = true;
  });
  return () => connected && client.status !== 'ready';
}

/** How long a client is asked to wait before trying again (`Retry-After`, seconds). */
export const RETRY_AFTER_SECONDS = 5;

export function unavailableMessage(dependency: Dependency): string {
  return dependency === 'database'
    ? 'The database is unavailable for a moment: try again shortly'
    : 'A shared counter is unavailable for a moment (Redis): try again shortly';
}

/**
 * Which dependency a fault says is away, or null for any other fault. Looks through `cause` and
 * an AggregateError's errors (knex and the pg pool wrap what the socket said).
 */
export function unavailableDependency(error: unknown, depth = 0): Dependency | null {
  if (depth > 5 || typeof error !== 'object' || error === null) return null;
  if (error instanceof DependencyUnavailableError) return error.dependency;
  const { name, message, code } = error as { name?: unknown; message?: unknown; code?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (name === 'MaxRetriesPerRequestError' || REDIS_AWAY.some((pattern) => pattern.test(text))) return 'redis';
  if (name === 'KnexTimeoutError' || DATABASE_AWAY.some((pattern) => pattern.test(text))) return 'database';
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_AWAY.test(code))) return 'database';
  const nested = [
    (error as { cause?: unknown }).cause,
    ...(Array.isArray((error as { errors?: unknown }).errors) ? (error as { errors: unknown[] }).errors : []),
  ];
  for (const inner of nested) {
    const found = unavailableDependency(inner, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * What ioredis and BullMQ reject a command with while Redis is away: the connection is closed or
 * reconnecting (offline queue off, or the command outlived its retries), or Redis is still loading.
 */
const REDIS_AWAY = [
  /^Connection is closed\.?$/,
  /^Stream isn't writeable and enableOfflineQueue options is false/,
  /^Reached the max retries per request limit/,
  /^LOADING /,
];

/**
 * What the pg client and knex's pool say when PostgreSQL is away: the socket closed under a
 * query, the server shutting down or starting up, no connection to be had within the timeout.
 * Anywhere in the message: knex puts the statement before the client's words (`select … - Connection terminated unexpectedly`).
 */
const DATABASE_AWAY = [
  /\bConnection terminated\b/,
  /\bConnection ended unexpectedly\b/,
  /\bClient has encountered a connection error and is not queryable\b/,
  /\bClient was closed and is not queryable\b/,
  /\bKnex: Timeout acquiring a connection\b/,
  /\bterminating connection due to administrator command\b/,
  /\bthe database system is (starting up|shutting down|in recovery mode)\b/,
];

/**
 * Socket errors. Only the database client lets them reach a request unwrapped: outbound HTTP
 * (deliveries, scrapers) and Stripe catch their own and answer in their route's words.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * PostgreSQL's SQLSTATEs for a server that cannot serve now: class 08 (connection exception),
 * 57P01–57P03 (shutdown, crash shutdown, cannot connect now) and 53300 (too many connections).
 */
const POSTGRES_AWAY = /^(08...|57P0[123]|53300)$/;
