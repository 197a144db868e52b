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
 *
 * A request may name the endpoint's consumer and their cap: each lease then counts in the
 * consumer's set too, and no more are granted than both the endpoint's and the consumer's free
 * slots allow, so one consumer's endpoints together hold at most that many leases in every
 * process together, whatever names their URLs give one host.
 */
export interface LeaseRequest {
  endpoint: string;
  count: number;
  cap: number;
  /** Who owns the endpoint, and how many leases they may hold over all their endpoints and processes. */
  consumer?: { id: string; cap: number };
}

export interface LeaseBook {
  /** Take up to `count` of the endpoint's `cap` slots: how many were taken. One round trip for all requests. */
  acquire(requests: LeaseRequest[]): Promise<number[]>;
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
  /** Whether the consumer held all the leases they may (their cap) when this process last asked for one of theirs. */
  consumerFull?(consumer: string): boolean;
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
  /** Leases per consumer, and the consumer an endpoint's leases count for. */
  const byConsumer = new Map<string, number>();
  const consumerOf = new Map<string, string>();
  const full = new Set<string>();
  const count = (counts: Map<string, number>, key: string, by: number): void => {
    const next = (counts.get(key) ?? 0) + by;
    if (next > 0) counts.set(key, next);
    else counts.delete(key);
  };
  return {
    async acquire(requests) {
      return requests.map(({ endpoint, count: wanted, cap, consumer }) => {
        const now = held.get(endpoint) ?? 0;
        const consumerFree = consumer ? consumer.cap - (byConsumer.get(consumer.id) ?? 0) : Infinity;
        const taken = Math.max(0, Math.min(wanted, cap - now, consumerFree));
        if (consumer) {
          if (taken >= consumerFree) full.add(consumer.id);
          else full.delete(consumer.id);
        }
        if (taken > 0) {
          held.set(endpoint, now + taken);
          if (consumer) {
            consumerOf.set(endpoint, consumer.id);
            count(byConsumer, consumer.id, taken);
          }
        }
        return taken;
      });
    },
    release(endpoint, given) {
      const had = held.get(endpoint) ?? 0;
      const gone = Math.min(had, given);
      if (gone <= 0) return;
      count(held, endpoint, -gone);
      const consumer = consumerOf.get(endpoint);
      if (consumer !== undefined) {
        count(byConsumer, consumer, -gone);
        if (!held.has(endpoint)) consumerOf.delete(endpoint);
      }
    },
    held: (endpoint) => held.get(endpoint) ?? 0,
    consumerFull: (consumer) => full.has(consumer),
    async close() {
      held.clear();
      full.clear();
      byConsumer.clear();
      consumerOf.clear();
    },
  };
}

/**
 * Every endpoint a process asks about at once, in one call. KEYS two per endpoint: its lease set
 * and its consumer's (the consumer's is a key of its own even where no consumer is named: a
 * set nobody writes). ARGV lease ms, this process's id, then per endpoint its cap, how many slots
 * are wanted, the first lease number to use and the consumer's cap (0: none). Per endpoint,
 * run-out leases are dropped from both sets and as many of the wanted are added as both have free
 * slots (`<process>-<n>`, n counting up from the number given, the same member in both). Answers
 * how many each took, then for each whether some process marked it fast (`<key>:fast`), then
 * for each whether its consumer now holds all they may.
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local owner = ARGV[2]
local count = #KEYS / 2
local taken = {}
for k = 1, count do
  local endpoint = KEYS[2 * k - 1]
  local consumer = KEYS[2 * k]
  local cap = tonumber(ARGV[4 * k - 1])
  local wanted = tonumber(ARGV[4 * k])
  local first = tonumber(ARGV[4 * k + 1])
  local consumerCap = tonumber(ARGV[4 * k + 2])
  redis.call('ZREMRANGEBYSCORE', endpoint, '-inf', now)
  local free = cap - redis.call('ZCARD', endpoint)
  local consumerFree = -1
  if consumerCap > 0 then
    redis.call('ZREMRANGEBYSCORE', consumer, '-inf', now)
    consumerFree = consumerCap - redis.call('ZCARD', consumer)
    free = math.min(free, consumerFree)
  end
  local n = 0
  while n < wanted and n < free do
    local member = owner .. '-' .. (first + n)
    redis.call('ZADD', endpoint, now + lease, member)
    if consumerCap > 0 then redis.call('ZADD', consumer, now + lease, member) end
    n = n + 1
  end
  if n > 0 then
    redis.call('PEXPIRE', endpoint, lease * 2)
    if consumerCap > 0 then redis.call('PEXPIRE', consumer, lease * 2) end
  end
  taken[k] = n
  taken[count + k] = redis.call('EXISTS', endpoint .. ':fast')
  taken[2 * count + k] = (consumerCap > 0 and n >= consumerFree) and 1 or 0
end
return taken
`;

/**
 * KEYS two per endpoint, its lease set and its consumer's (as for ACQUIRE_SCRIPT); ARGV lease ms
 * (0: give back), then per endpoint how many ids follow and the ids. Renewing starts each id's
 * time afresh in both sets (the consumer's only where it holds the id); giving back removes it
 * from both.
 */
const HELD_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local at = 2
for k = 1, #KEYS / 2 do
  local endpoint = KEYS[2 * k - 1]
  local consumer = KEYS[2 * k]
  local count = tonumber(ARGV[at])
  for i = at + 1, at + count do
    if lease > 0 then
      redis.call('ZADD', endpoint, now + lease, ARGV[i])
      redis.call('ZADD', consumer, 'XX', now + lease, ARGV[i])
    else
      redis.call('ZREM', endpoint, ARGV[i])
      redis.call('ZREM', consumer, ARGV[i])
    end
  end
  if lease > 0 then
    redis.call('PEXPIRE', endpoint, lease * 2)
    if redis.call('EXISTS', consumer) == 1 then redis.call('PEXPIRE', consumer, lease * 2) end
  end
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
  /** Consumers who held all the leases they may, as of the last acquire for one of theirs. */
  const fullConsumers = new Set<string>();
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
  const hashOf = (value: string) => createHash('sha1').update(value).digest('hex').slice(0, 24);
  const keyOf = (endpoint: string) => `${keyPrefix}:webhooks:endpoint:${hashOf(endpoint)}`;
  /** The consumer whose set an endpoint's leases count in ('' when none was named). */
  const consumerOf = new Map<string, string>();
  const forgetIfFree = (endpoint: string): void => {
    if (!held.has(endpoint) && !returned.has(endpoint)) consumerOf.delete(endpoint);
  };
  const consumerKeyOf = (endpoint: string) => `${keyPrefix}:webhooks:consumer:${hashOf(consumerOf.get(endpoint) ?? '')}`;

  /** One HELD_SCRIPT call for these endpoints' ids: renewed (lease ms) or given back (0). */
  const writeHeld = (ids: Map<string, string[]>, lease: number): Promise<unknown> => {
    const keys: string[] = [];
    const argv = [String(lease)];
    for (const [endpoint, list] of ids) {
      if (list.length === 0) continue;
      keys.push(keyOf(endpoint), consumerKeyOf(endpoint));
      argv.push(String(list.length), ...list);
    }
    if (keys.length === 0) return Promise.resolve();
    return redis.eval(HELD_SCRIPT, keys.length, ...keys, ...argv);
  };

  const flushReturned = (): Promise<unknown> => {
    flushing = undefined;
    const giving = new Map(returned);
    returned.clear();
    const written = writeHeld(giving, 0).catch((error: Error) => onError(error));
    // The keys are named: an endpoint this process holds nothing of any more forgets its consumer.
    for (const endpoint of giving.keys()) forgetIfFree(endpoint);
    return written;
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
      for (const { endpoint, count, cap, consumer } of requests) {
        const wanted = Math.max(0, Math.min(count, cap));
        // An endpoint's leases count for one consumer: the one named when it first held any.
        if (!consumerOf.has(endpoint)) consumerOf.set(endpoint, consumer?.id ?? '');
        keys.push(keyOf(endpoint), consumerKeyOf(endpoint));
        firsts.push(sequence + 1);
        argv.push(String(cap), String(wanted), String(sequence + 1), String(consumer?.cap ?? 0));
        sequence += wanted;
      }
      let answer: unknown;
      try {
        answer = await redis.eval(ACQUIRE_SCRIPT, keys.length, ...keys, ...argv);
      } catch (error) {
        onError(error as Error);
        for (const { endpoint } of requests) forgetIfFree(endpoint);
        return requests.map(() => 0);
      }
      const taken = (answer as Array<number | string>).map(Number);
      return requests.map(({ endpoint, consumer }, n) => {
        const count = taken[n] ?? 0;
        if (taken[requests.length + n] === 1) fastOthers.add(endpoint);
        else fastOthers.delete(endpoint);
        if (consumer) {
          if (taken[2 * requests.length + n] === 1) fullConsumers.add(consumer.id);
          else fullConsumers.delete(consumer.id);
        }
        if (count > 0) {
          const list = held.get(endpoint) ?? [];
          for (let i = 0; i < count; i += 1) list.push(`${processId}-${firsts[n] + i}`);
          held.set(endpoint, list);
        } else forgetIfFree(endpoint);
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
    consumerFull: (consumer) => fullConsumers.has(consumer),
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
