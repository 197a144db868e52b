import type { Core } from '@strapi/strapi';
import { ownersOf } from '../content-api/owners';
import type { Redis } from 'ioredis';
import { UIDS } from '../../../constants';
import { tableOf } from '../../../db';
import { NotFoundError } from '../../../errors';
import { getConfig, getService } from '../../../utils';
import { generateApiKey, generateClientId, hashApiKey, keyPrefixOf, safeEqual } from '../credentials';
import { assertBelowKeyCap, keyCapOf } from '../key-cap';
import type { Scope } from '../../../http/principal';
import {
  effectiveStatus,
  limitsOf,
  normaliseScopes,
  toEntry,
  toPublic,
  type KeyEntry,
  type KeyLimits,
  type KeyRow,
  type PublicKey,
} from '../key-rows';
import { KeyNotActiveError } from '../errors';

export { effectiveStatus, type KeyEntry, type KeyLimits, type KeyRow, type KeyStatus, type PublicKey, type Scope } from '../key-rows';

export interface IssueInput {
  userId: number;
  name?: string;
  scopes: Scope[];
  expiresAt?: Date;
  /** An administrator's explicit plan; without it the key follows its owner's plan. */
  planId?: number;
}

/** What a reroll hands its new key beyond an issue's input: the quota pool it carries on. */
interface Continuation {
  poolKeyId: number;
}

const POSITIVE_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;

/**
 * Issue, list and revoke keys, and find the key behind a request. Lookups are cached in
 * memory; a revocation clears the entry here at once and, through Redis pub/sub, on every
 * other instance, so a revoked key stops working everywhere within a second.
 */
const keysService = ({ strapi }: { strapi: Core.Strapi }) => {
  const byHash = new Map<string, { entry: KeyEntry | null; until: number }>();
  /** Consumer plans are cached by their own service; one channel drops both. */
  const consumerPlans = () => getService(strapi, 'consumer-plans');
  const hashById = new Map<number, string>();
  const channel = () => `${getConfig(strapi).jobs.prefix}:access:invalidate`;
  let listening = false;
  /** The connection invalidations arrive on (with Redis). */
  let hearing: Redis | undefined;
  /**
   * Whether what is cached can be believed: not while the connection that hears of revocations
   * is down (Redis away), when a key revoked on another instance would still be served from
   * here. Keys are then read from the database on every request until it is back.
   */
  const cacheTrusted = () => hearing === undefined || hearing.status === 'ready';

  const forget = (id: number | '*') => {
    if (id === '*') {
      byHash.clear();
      hashById.clear();
      consumerPlans().forget('*');
      return;
    }
    const hash = hashById.get(id);
    if (hash) byHash.delete(hash);
    hashById.delete(id);
  };

  const remember = (hash: string, entry: KeyEntry | null) => {
    byHash.set(hash, { entry, until: Date.now() + (entry ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS) });
    if (entry) hashById.set(entry.id, hash);
  };

  const load = async (where: Record<string, unknown>): Promise<KeyEntry[]> => {
    const rows = await strapi.db.query(UIDS.apiKey).findMany({
      where,
      populate: {
        plan: { select: ['id'] },
        user: { select: ['id', 'consumer_id', 'blocked'], populate: { role: { select: ['type'] } } },
      },
    });
    return rows.map((row: KeyRow) => toEntry(row));
  };

  /** Write a new key (inside the caller's transaction, if any): the raw key and its row. */
  const create = async (input: IssueInput, continues?: Continuation): Promise<{ key: string; row: KeyRow }> => {
    const key = generateApiKey();
    const row = await strapi.db.query(UIDS.apiKey).create({
      data: {
        name: input.name ?? null,
        key_prefix: keyPrefixOf(key),
        key_hash: hashApiKey(key),
        client_id: generateClientId(),
        scopes: input.scopes,
        status: 'active',
        expires_at: input.expiresAt ?? null,
        user: input.userId,
        // Without an explicit plan the key follows its owner's, now and whenever it changes.
        plan: input.planId ?? null,
        pool_key_id: continues?.poolKeyId ?? null,
      },
      populate: { plan: { select: ['id'] }, user: { select: ['id'] } },
    });
    // A negative lookup of this very hash may be cached from before it existed.
    byHash.delete(hashApiKey(key));
    return { key, row: row as KeyRow };
  };

  return {
    /** Subscribe to invalidations from other instances (no-op without Redis). */
    async listen(): Promise<void> {
      if (listening) return;
      const subscriber = getService(strapi, 'platform').subscriber('keys');
      if (!subscriber) return;
      listening = true;
      hearing = subscriber;
      subscriber.on('message', (_channel: string, message: string) => {
        if (message.startsWith(CONSUMER_MESSAGE)) consumerPlans().forget(Number(message.slice(CONSUMER_MESSAGE.length)));
        else if (message === OWNERS_MESSAGE) ownersOf(strapi).forget();
        else forget(message === '*' ? '*' : Number(message));
      });
      // Messages sent while the connection was down are lost: start from an empty cache.
      subscriber.on('ready', () => {
        forget('*');
        ownersOf(strapi).forget();
      });
      await subscriber.subscribe(channel());
    },

    /** Drop a key (or every key) from the cache here and on every instance. */
    async invalidate(id: number | '*'): Promise<void> {
      forget(id);
      await getService(strapi, 'platform').broadcast(channel(), String(id));
    },

    /** A consumer's plan changed (a subscription, a grant): every instance looks it up again. */
    async invalidateConsumer(userId: number): Promise<void> {
      consumerPlans().forget(userId);
      await getService(strapi, 'platform').broadcast(channel(), `${CONSUMER_MESSAGE}${userId}`);
    },

    /**
     * A users-permissions user, role or permission changed: every instance reads keys' owners and
     * their roles' abilities again (content-api/owners.ts).
     */
    async invalidateOwners(): Promise<void> {
      ownersOf(strapi).forget();
      await getService(strapi, 'platform').broadcast(channel(), OWNERS_MESSAGE);
    },

    /** Whether what this instance caches of keys and their owners can be believed now (not while it cannot hear invalidations). */
    cacheTrusted,

    /** The key whose full secret is `key`, or null. Constant-time on the hash. */
    async findBySecret(key: string): Promise<KeyEntry | null> {
      const hash = hashApiKey(key);
      const cached = byHash.get(hash);
      if (cached && cached.until > Date.now() && cacheTrusted()) return cached.entry;
      const candidates = await load({ key_prefix: keyPrefixOf(key) });
      const entry = candidates.find((candidate) => safeEqual(candidate.keyHash, hash)) ?? null;
      remember(hash, entry);
      return entry;
    },

    async findById(id: number): Promise<KeyEntry | null> {
      const hash = hashById.get(id);
      const cached = hash ? byHash.get(hash) : undefined;
      if (cached && cached.until > Date.now() && cacheTrusted()) return cached.entry;
      const [entry] = await load({ id });
      if (entry) remember(entry.keyHash, entry);
      return entry ?? null;
    },

    /**
     * The key `id` with its owner and plan, if `caller` may reach it: their own, any for an
     * administrator (and the admin panel); any other is a 404, as one that does not exist is.
     * The routes on one key load it so (routes/inputs.ts).
     */
    async reachable(id: number, caller: { userId: number; isAdmin: boolean }): Promise<KeyRow> {
      const row = (await strapi.db
        .query(UIDS.apiKey)
        .findOne({ where: { id }, populate: { user: { select: ['id'] }, plan: { select: ['id'] } } })) as KeyRow | null;
      if (!row || (!caller.isAdmin && row.user?.id !== caller.userId)) throw new NotFoundError('API key');
      return row;
    },

    async findByClientId(clientId: string): Promise<KeyEntry | null> {
      const [entry] = await load({ client_id: clientId });
      return entry ?? null;
    },

    /**
     * Create a key. The raw key is returned here and nowhere else: only its hash is stored, so
     * it cannot be shown again (the same reason Medusa and Stripe show secrets once). With a
     * `cap` (a consumer making their own key, see key-cap.ts), an owner already holding that many
     * live keys is refused with 409 too_many_keys, counted in the transaction that writes it.
     */
    async issue(input: IssueInput, options: { cap?: number | null } = {}): Promise<PublicKey & { key: string }> {
      const { cap } = options;
      const { key, row } =
        cap === undefined || cap === null
          ? await create(input)
          : await strapi.db.transaction(async ({ trx }) => {
              await assertBelowKeyCap(strapi, trx, input.userId, cap);
              return create(input);
            });
      const [shown] = await this.shown([row]);
      return { key, ...shown };
    },

    /** Keys as the API shows them: a key that follows its owner shows the owner's plan. */
    async shown(rows: KeyRow[]): Promise<PublicKey[]> {
      const owners = [...new Set(rows.flatMap((row) => (row.plan || !row.user ? [] : [row.user.id])))];
      const plans = new Map(await Promise.all(owners.map(async (userId) => [userId, (await consumerPlans().of(userId)).rule.id] as const)));
      return rows.map((row) => toPublic(row, row.plan ? row.plan.id : row.user ? (plans.get(row.user.id) ?? null) : null));
    },

    /**
     * Reroll (docs/access.md#keys-and-plans): a new key with the same name, plan, scopes, owner,
     * expiry, own limits and quota pool (what the old one used this minute and month counts for
     * the new one, and both draw on it through the grace period); the old one keeps working for `graceSeconds` (never past its own expiry), then
     * answers key_expired, and records which key replaced it. A key is rerolled once: a second
     * reroll of the same key (or of a revoked or expired one) is a 409, so racing rerolls make one
     * new key. The new key counts against its owner's cap on live keys (key-cap.ts) while the old
     * one still works, so at the cap only a reroll with no grace period goes through. `row` is the
     * key as `reachable` found it for `caller`.
     */
    async reroll(
      row: KeyRow,
      caller: { userId: number; isAdmin: boolean },
      graceSeconds: number
    ): Promise<PublicKey & { key: string; replaces: number; old_expires_at: string }> {
      const { id } = row;
      const expiresAt = row.expires_at ? new Date(row.expires_at) : null;
      if (effectiveStatus(row.status, expiresAt ? expiresAt.getTime() : null) !== 'active' || row.replaced_by) {
        throw new KeyNotActiveError(row.replaced_by ?? null);
      }
      const graceEnd = new Date(Date.now() + graceSeconds * 1000);
      const oldExpiresAt = expiresAt && expiresAt < graceEnd ? expiresAt : graceEnd;
      const planId = row.plan?.id;
      const cap = keyCapOf(strapi, caller);
      const issued = await strapi.db.transaction(async ({ trx }) => {
        if (cap !== null) {
          const ending = oldExpiresAt.getTime() <= Date.now() ? id : undefined;
          await assertBelowKeyCap(strapi, trx, row.user?.id as number, cap, { ending, reroll: true });
        }
        const { key, row: created } = await create(
          {
            userId: row.user?.id as number,
            planId,
            name: row.name ?? undefined,
            scopes: normaliseScopes(row.scopes),
            expiresAt: expiresAt ?? undefined,
          },
          // A fresh pool would be a fresh month: the old key's carries on, however often it is rerolled.
          { poolKeyId: row.pool_key_id ?? row.id }
        );
        const claimed = await trx(tableOf(strapi, UIDS.apiKey))
          .where({ id })
          .whereNull('replaced_by')
          .update({ replaced_by: created.id, expires_at: oldExpiresAt });
        if (claimed !== 1) throw new KeyNotActiveError(null, 'The key was already rerolled');
        // The key's own limits go with it.
        if (row.requests_per_minute != null || row.requests_per_month != null) {
          await strapi.db.query(UIDS.apiKey).update({
            where: { id: created.id },
            data: { requests_per_minute: row.requests_per_minute ?? null, requests_per_month: row.requests_per_month ?? null },
          });
        }
        return { key, row: created };
      });
      await this.invalidate(id);
      const [shown] = await this.shown([issued.row]);
      return { key: issued.key, ...shown, replaces: id, old_expires_at: oldExpiresAt.toISOString() };
    },

    /** Administrators: a key's own minute and month limits (null: the plan's), answered with the key (as `reachable` found it). */
    async setLimits(
      key: KeyRow,
      limits: { requests_per_minute?: number | null; requests_per_month?: number | null }
    ): Promise<PublicKey & KeyLimits> {
      const { id } = key;
      // Through the query engine: the api-key afterUpdate lifecycle clears the key on every instance.
      await strapi.db.query(UIDS.apiKey).update({ where: { id }, data: limits });
      const row = (await strapi.db
        .query(UIDS.apiKey)
        .findOne({ where: { id }, populate: { plan: { select: ['id'] }, user: { select: ['id'] } } })) as KeyRow;
      const [shown] = await this.shown([row]);
      return { ...shown, ...limitsOf(row) };
    },

    async list(options: { userId?: number; page: number; limit: number }): Promise<{ data: PublicKey[]; total: number }> {
      const where = options.userId === undefined ? {} : { user: { id: options.userId } };
      const [rows, total] = await Promise.all([
        strapi.db.query(UIDS.apiKey).findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          offset: (options.page - 1) * options.limit,
          limit: options.limit,
          populate: { plan: { select: ['id'] }, user: { select: ['id'] } },
        }),
        strapi.db.query(UIDS.apiKey).count({ where }),
      ]);
      return { data: await this.shown(rows as KeyRow[]), total };
    },

    /** Revoke a key (as `reachable` found it for its caller). The record is kept. */
    async revoke(row: KeyRow): Promise<void> {
      const { id } = row;
      if (row.status !== 'revoked') {
        // The api-key afterUpdate lifecycle (access feature bootstrap) clears the cache here and
        // on every instance before this resolves, for this update and for an editor's alike.
        await strapi.db.query(UIDS.apiKey).update({ where: { id }, data: { status: 'revoked', revoked_at: new Date() } });
      }
    },
  };
};

const CONSUMER_MESSAGE = 'consumer:';
const OWNERS_MESSAGE = 'owners';

export type KeysService = ReturnType<typeof keysService>;
export default keysService;
