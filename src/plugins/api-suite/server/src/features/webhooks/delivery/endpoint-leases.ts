import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * An endpoint's request slots across every worker process (its fair share, `cap` at once).
 *
 * With Redis, each slot a process holds is a lease: a member of the endpoint's sorted set scored
 * with the time it runs out (Redis's clock). A process takes leases in one script call (only as
 * many as are free), keeps them while it has sends for the endpoint, renews the ones it holds
 * every third of the lease, and gives them back once it has nothing more for the endpoint (each
 * of these is one script call for all the endpoints concerned: a fan-out asks about thousands). A
 * process that dies (SIGKILL) renews nothing: its leases run out and other processes take the
 * slots, within one lease. Without Redis the book counts this process's slots only, which is
 * exact for the one instance that setup supports.
 */
export interface LeaseBook {
  /** Take up to `count` of the endpoint's `cap` slots: how many were taken. One round trip for all requests. */
  acquire(requests: Array<{ endpoint: string; count: number; cap: number }>): Promise<number[]>;
  /** Give back `count` slots of the endpoint this process holds. */
  release(endpoint: string, count: number): void;
  /** Slots of the endpoint held by this process. */
  held(endpoint: string): number;
  /** Stop renewing; what is held is given back. */
  close(): Promise<void>;
  /**
   * Say that this process finds the endpoint fast (it answers within the slow threshold and is
   * sent beyond its share), for about a second, or no longer. Other processes learn it when they
   * next ask for the endpoint's slots, and may then lend it their own free slots too.
   */
  markFast?(endpoint: string, fast: boolean): void;
  /** Whether another process said, when this one last asked for the endpoint's slots, that it is fast. */
  fastElsewhere?(endpoint: string): boolean;
  /** Worker processes delivering now, this one included (1 without Redis): seen within the last few seconds. */
  workers?(): number;
}

/** How long a process's word that an endpoint is fast holds unless said again. */
export const FAST_MARK_MS = 1_000;
/** How often a worker process says it is there, and how long that holds. */
const PRESENCE_MS = 1_000;
const PRESENCE_HOLDS_MS = 3 * PRESENCE_MS;

export function createLeaseBook(redis: Redis | undefined, keyPrefix: string, leaseMs: number, onError: (error: Error) => void): LeaseBook {
  return redis ? redisLeaseBook(redis, keyPrefix, leaseMs, onError) : memoryLeaseBook();
}

export function memoryLeaseBook(): LeaseBook {
  const held = new Map<string, number>();
  return {
    async acquire(requests) {
      return requests.map(({ endpoint, count, cap }) => {
        const now = held.get(endpoint) ?? 0;
        const taken = Math.max(0, Math.min(count, cap - now));
        if (taken > 0) held.set(endpoint, now + taken);
        return taken;
      });
    },
    release(endpoint, count) {
      const left = (held.get(endpoint) ?? 0) - count;
      if (left > 0) held.set(endpoint, left);
      else held.delete(endpoint);
    },
    held: (endpoint) => held.get(endpoint) ?? 0,
    async close() {
      held.clear();
    },
  };
}

/**
 * Every endpoint a process asks about at once, in one call. KEYS the endpoints' lease sets; ARGV
 * lease ms, this process's id, then per key its cap, how many slots are wanted and the first
 * lease number to use. Per key, run-out leases are dropped and as many of the wanted are added
 * as there are free slots (`<process>-<n>`, n counting up from the number given). Answers how
 * many each key took, then for each key whether some process marked it fast (`<key>:fast`).
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local owner = ARGV[2]
local taken = {}
for k = 1, #KEYS do
  local cap = tonumber(ARGV[3 * k])
  local wanted = tonumber(ARGV[3 * k + 1])
  local first = tonumber(ARGV[3 * k + 2])
  redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', now)
  local free = cap - redis.call('ZCARD', KEYS[k])
  local n = 0
  while n < wanted and n < free do
    redis.call('ZADD', KEYS[k], now + lease, owner .. '-' .. (first + n))
    n = n + 1
  end
  if n > 0 then redis.call('PEXPIRE', KEYS[k], lease * 2) end
  taken[k] = n
  taken[#KEYS + k] = redis.call('EXISTS', KEYS[k] .. ':fast')
end
return taken
`;

/**
 * KEYS the endpoints' lease sets; ARGV lease ms (0: give back), then per key how many ids follow
 * and the ids. Renewing starts each id's time afresh; giving back removes it.
 */
const HELD_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local at = 2
for k = 1, #KEYS do
  local count = tonumber(ARGV[at])
  for i = at + 1, at + count do
    if lease > 0 then redis.call('ZADD', KEYS[k], now + lease, ARGV[i]) else redis.call('ZREM', KEYS[k], ARGV[i]) end
  end
  if lease > 0 then redis.call('PEXPIRE', KEYS[k], lease * 2) end
  at = at + count + 1
end
return #KEYS
`;

/**
 * KEYS the set of worker processes; ARGV this process's id and how long a word holds (ms). Says
 * this process is there (scored with Redis's clock), forgets those silent too long, and answers
 * how many are there.
 */
const PRESENCE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local holds = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - holds)
redis.call('PEXPIRE', KEYS[1], holds * 2)
return redis.call('ZCARD', KEYS[1])
`;

function redisLeaseBook(redis: Redis, keyPrefix: string, leaseMs: number, onError: (error: Error) => void): LeaseBook {
  /** This process's lease ids are `<process>-<n>`. */
  const processId = randomBytes(6).toString('hex');
  let sequence = 0;
  /** Lease ids held, per endpoint. */
  const held = new Map<string, string[]>();
  /** Lease ids given back and not yet removed in Redis (removed together, once per turn of the event loop). */
  const returned = new Map<string, string[]>();
  /** Endpoints another process said were fast, as of the last acquire. */
  const fastOthers = new Set<string>();
  /** Marks to write (together, once per turn of the event loop). */
  const marks = new Map<string, boolean>();
  let marking: NodeJS.Immediate | undefined;
  const flushMarks = (): void => {
    marking = undefined;
    if (marks.size === 0) return;
    const pipeline = redis.pipeline();
    for (const [endpoint, fast] of marks) {
      if (fast) pipeline.set(`${keyOf(endpoint)}:fast`, '1', 'PX', FAST_MARK_MS);
      else pipeline.del(`${keyOf(endpoint)}:fast`);
    }
    marks.clear();
    pipeline.exec().catch((error: Error) => onError(error));
  };
  let flushing: NodeJS.Immediate | undefined;
  const keyOf = (endpoint: string) => `${keyPrefix}:webhooks:endpoint:${createHash('sha1').update(endpoint).digest('hex').slice(0, 24)}`;

  /** One HELD_SCRIPT call for these endpoints' ids: renewed (lease ms) or given back (0). */
  const writeHeld = (ids: Map<string, string[]>, lease: number): Promise<unknown> => {
    const keys: string[] = [];
    const argv = [String(lease)];
    for (const [endpoint, list] of ids) {
      if (list.length === 0) continue;
      keys.push(keyOf(endpoint));
      argv.push(String(list.length), ...list);
    }
    if (keys.length === 0) return Promise.resolve();
    return redis.eval(HELD_SCRIPT, keys.length, ...keys, ...argv);
  };

  const flushReturned = (): Promise<unknown> => {
    flushing = undefined;
    const giving = new Map(returned);
    returned.clear();
    return writeHeld(giving, 0).catch((error: Error) => onError(error));
  };

  const renewer = setInterval(
    () => {
      writeHeld(held, leaseMs).catch((error: Error) => onError(error));
    },
    Math.max(500, Math.floor(leaseMs / 3))
  );
  renewer.unref();

  /** Worker processes seen, as of the last word this one said. */
  let workers = 1;
  const presenceKey = `${keyPrefix}:webhooks:workers`;
  const sayPresent = (): void => {
    redis.eval(PRESENCE_SCRIPT, 1, presenceKey, processId, String(PRESENCE_HOLDS_MS)).then(
      (count) => {
        workers = Math.max(1, Number(count));
      },
      (error: Error) => onError(error)
    );
  };
  sayPresent();
  const presence = setInterval(sayPresent, PRESENCE_MS);
  presence.unref();

  return {
    async acquire(requests) {
      if (requests.length === 0) return [];
      const keys: string[] = [];
      const argv = [String(leaseMs), processId];
      const firsts: number[] = [];
      for (const { endpoint, count, cap } of requests) {
        const wanted = Math.max(0, Math.min(count, cap));
        keys.push(keyOf(endpoint));
        firsts.push(sequence + 1);
        argv.push(String(cap), String(wanted), String(sequence + 1));
        sequence += wanted;
      }
      let answer: unknown;
      try {
        answer = await redis.eval(ACQUIRE_SCRIPT, keys.length, ...keys, ...argv);
      } catch (error) {
        onError(error as Error);
        return requests.map(() => 0);
      }
      const taken = (answer as Array<number | string>).map(Number);
      return requests.map(({ endpoint }, n) => {
        const count = taken[n] ?? 0;
        if (taken[requests.length + n] === 1) fastOthers.add(endpoint);
        else fastOthers.delete(endpoint);
        if (count > 0) {
          const list = held.get(endpoint) ?? [];
          for (let i = 0; i < count; i += 1) list.push(`${processId}-${firsts[n] + i}`);
          held.set(endpoint, list);
        }
        return count;
      });
    },
    release(endpoint, count) {
      const list = held.get(endpoint);
      if (!list || count <= 0) return;
      const ids = list.splice(list.length - Math.min(count, list.length));
      if (list.length === 0) held.delete(endpoint);
      const pending = returned.get(endpoint);
      if (pending) pending.push(...ids);
      else returned.set(endpoint, ids);
      flushing ??= setImmediate(flushReturned);
    },
    held: (endpoint) => held.get(endpoint)?.length ?? 0,
    markFast(endpoint, fast) {
      marks.set(endpoint, fast);
      marking ??= setImmediate(flushMarks);
    },
    fastElsewhere: (endpoint) => fastOthers.has(endpoint),
    workers: () => workers,
    async close() {
      clearInterval(renewer);
      clearInterval(presence);
      await redis.zrem(presenceKey, processId).catch((error: Error) => onError(error));
      if (marking) clearImmediate(marking);
      marks.clear();
      if (flushing) clearImmediate(flushing);
      for (const [endpoint, ids] of held) returned.set(endpoint, (returned.get(endpoint) ?? []).concat(ids));
      held.clear();
      await flushReturned();
    },
  };
}
