/**
 * Request quotas of a pool: a clock-minute window and a calendar-month window, both in UTC. A
 * pool is what shares one allowance: a consumer on a plan (every key, token and JWT of theirs
 * on it), or one key with limits of its own (see `poolOf` in ../pools.ts).
 *
 * Refused requests are not counted, so a client hammering a key that is over its limit does not
 * push its own reset further away or eat into next month's allowance. The Redis counter is the
 * one to use with more than one app instance: the check and the increment happen in one Lua
 * script, so concurrent requests on any number of instances can never overshoot a limit.
 *
 * While Redis is away the Redis counter decides on what it knows (docs/operations.md): each
 * instance counts on its own, the minute per instance and the month on top of the count Redis
 * last gave it for the pool, and adds what it counted to Redis's month once it is back. A pool
 * with a monthly quota whose count this instance never read is refused with 503
 * (DependencyUnavailableError): allowing it would be a guess.
 */
export * from './windows';
export { createMemoryQuotaCounter } from './memory';
export { createRedisQuotaCounter } from './redis';
