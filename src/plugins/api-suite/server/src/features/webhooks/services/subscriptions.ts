import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS, type Owner } from '../../../constants';
import { documentId } from '../../../random';
import { pageOwned, retryOnDeadlock, tableOf, toBool, type Knex } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { createSecretBox, type SecretBox } from '../secret-box';
import { generateSecret, ROTATION_WINDOW_MS } from '../signing';
import { patternsOf } from '../events/catalog';
import { compiledFilters, type Subscriber } from '../subscriptions/filters';
import { assertBelowCap, type SubscriptionCap, type SubscriptionCreator } from '../subscriptions/cap';
import { createSubscription } from '../subscriptions/create';
import type { Subscription } from '../validation/responses';
import {
  DEFAULT_TIMEOUT_SECONDS,
  dedupe,
  deliveryTarget,
  eventsOf,
  presentSubscription,
  type DeliveryTarget,
  type SubscriptionInput,
  type SubscriptionPatch,
  FIXED_COLUMNS,
  REENABLED,
  type SubscriptionRow,
} from '../subscriptions/rows';

export {
  DEFAULT_TIMEOUT_SECONDS,
  eventsOf,
  ROTATION_RECOMMENDED_AFTER_MS,
  type DeliveryTarget,
  type SubscriptionInput,
  type SubscriptionPatch,
  type SubscriptionRow,
} from '../subscriptions/rows';

/** Targets are cached by the worker; edits clear them on every instance at once, this is only a backstop. */
const TARGET_TTL_MS = 30_000;
/** Who subscribes to a type is cached for publishing, cleared like targets; again a backstop. */
const TOPICS_TTL_MS = 5_000;
const TOPICS_KEPT = 10_000;

export { isReservedHeader, RESERVED_HEADERS } from '../../../http/reserved-headers';
export { FIXED_COLUMNS } from '../subscriptions/rows';

/**
 * Webhook subscriptions: their rows, their topics (the index publishing matches on), the
 * encrypted secrets, and the worker's cache of delivery targets, cleared on every instance when
 * a subscription changes.
 */
const subscriptionsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const table = () => tableOf(strapi, UIDS.webhookSubscription);
  const topicsTable = () => tableOf(strapi, UIDS.webhookTopic);
  const knex = () => strapi.db.connection;
  const targets = new Map<number, { target: DeliveryTarget | null; until: number }>();
  /** Reads of one target under way, shared by every send that asks for it at once (`current`). */
  const reading = new Map<number, { generation: number; target: Promise<DeliveryTarget | null> }>();
  /** `<audience>|<topic>` → the active subscriptions with that exact topic (a type, a prefix pattern or `*`). */
  const topics = new Map<string, { subscribers: Subscriber[]; until: number }>();
  const filters = compiledFilters((id, error) =>
    strapi.log.warn(
      `[api-suite] webhooks: the stored filter of subscription ${id} cannot be applied (${error}); it receives every event of its types`
    )
  );
  /** Bumped by every change, so a lookup that raced one does not cache what it read before it. */
  let generation = 0;
  const channel = () => `${getConfig(strapi).jobs.prefix}:webhooks:invalidate`;
  let box: SecretBox | undefined;
  let listening = false;

  const secretBox = (): SecretBox => {
    if (!box) {
      const key = (strapi.config.get('admin.secrets.encryptionKey') as string | undefined) || process.env.ENCRYPTION_KEY;
      if (!key)
        throw new Error('api-suite: webhook secrets are encrypted with admin.secrets.encryptionKey (ENCRYPTION_KEY), which is not set');
      box = createSecretBox(key);
    }
    return box;
  };

  const forgetLocally = (id: number | '*') => {
    // Any change may add, move or remove topics, or switch a subscription on or off.
    generation += 1;
    topics.clear();
    if (id === '*') {
      targets.clear();
      reading.clear();
      filters.clear();
    } else {
      targets.delete(id);
      reading.delete(id);
      filters.forget(id);
    }
  };

  return {
    seal(secret: string): string {
      return secretBox().seal(secret);
    },

    /**
     * A new subscription with its topics. With `cap`, refused (409 too_many_subscriptions, nothing
     * written) when the consumer already holds that many: counted in the same transaction as the
     * insert, behind a per-consumer lock on PostgreSQL (`subscriptions/cap.ts`).
     */
    async create(
      consumerId: string,
      input: SubscriptionInput,
      options: { cap?: SubscriptionCap | null } = {}
    ): Promise<{ row: SubscriptionRow; secret: string }> {
      const secret = generateSecret();
      const now = new Date();
      const uuid = randomUUID();
      const events = dedupe(input.events);
      await knex().transaction(async (trx) => {
        if (options.cap) await assertBelowCap(strapi, trx, table(), consumerId, options.cap);
        await trx(table()).insert({
          document_id: documentId(),
          uuid,
          consumer_id: consumerId,
          endpoint_url: input.endpoint_url,
          description: input.description ?? '',
          events: JSON.stringify(events),
          is_active: true,
          headers: JSON.stringify(input.headers ?? {}),
          timeout_seconds: input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
          rate_limit: input.rate_limit ?? null,
          filter: input.filter ? JSON.stringify(input.filter) : null,
          failure_count: 0,
          secret: secretBox().seal(secret),
          created_at: now,
          updated_at: now,
          published_at: now,
        });
        const row = (await trx(table()).select('id').where({ uuid }).first()) as { id: number };
        await this.writeTopics(trx, row.id, events, true);
      });
      const row = await this.get(uuid);
      if (!row) throw new Error('the new subscription could not be read back');
      // Publishing (here and on every instance) must see the new topics from now on.
      await this.forget(row.id);
      return { row, secret };
    },

    /** One consumer's subscriptions, or every consumer's with `ALL_CONSUMERS`, newest first. */
    /** Made by another feature's route for its caller (scrapers' `POST /api/v1/webhooks`): `POST /api/webhooks/subscriptions`'s checks, cap and test event, events within `allowedEvents`. */
    subscribe(creator: SubscriptionCreator, input: SubscriptionInput, options: { allowedEvents?: readonly string[] } = {}) {
      return createSubscription(strapi, creator, input, options);
    },

    async list(owner: Owner, page: number, limit: number): Promise<{ rows: SubscriptionRow[]; total: number }> {
      return pageOwned<SubscriptionRow>(() => knex()(table()), owner, page, limit);
    },

    async get(uuid: string): Promise<SubscriptionRow | null> {
      const row = (await knex()(table()).select('*').where({ uuid }).first()) as SubscriptionRow | undefined;
      return row ?? null;
    },

    async getById(id: number): Promise<SubscriptionRow | null> {
      const row = (await knex()(table()).select('*').where({ id }).first()) as SubscriptionRow | undefined;
      return row ?? null;
    },

    /**
     * The one way an edit reaches a subscription's row (the API's and the admin page's): the topics
     * are rewritten in the same transaction when the events change, and every instance's caches
     * are cleared after it. The identity and the secrets are not edits (`FIXED_COLUMNS`): refused.
     */
    async update(row: SubscriptionRow, patch: SubscriptionPatch): Promise<SubscriptionRow> {
      const fixed = FIXED_COLUMNS.filter((column) => column in patch);
      if (fixed.length > 0) throw new Error(`a subscription's ${fixed.join(', ')} cannot be edited (rotate replaces its secret)`);
      const changes: Record<string, unknown> = { updated_at: new Date() };
      if (patch.endpoint_url !== undefined) changes.endpoint_url = patch.endpoint_url;
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.headers !== undefined) changes.headers = JSON.stringify(patch.headers);
      if (patch.timeout_seconds !== undefined) changes.timeout_seconds = patch.timeout_seconds;
      if (patch.rate_limit !== undefined) changes.rate_limit = patch.rate_limit;
      if (patch.filter !== undefined) changes.filter = patch.filter === null ? null : JSON.stringify(patch.filter);
      const events = patch.events === undefined ? undefined : dedupe(patch.events);
      if (events) changes.events = JSON.stringify(events);
      if (patch.is_active === true && !toBool(row.is_active)) {
        Object.assign(changes, { is_active: true, ...REENABLED });
      } else if (patch.is_active === false) {
        changes.is_active = false;
      }
      await knex().transaction(async (trx) => {
        await trx(table()).where({ id: row.id }).update(changes);
        if (events) await this.writeTopics(trx, row.id, events);
      });
      await this.forget(row.id);
      if (patch.rate_limit !== undefined && patch.rate_limit !== row.rate_limit)
        await getService(strapi, 'webhook-deliveries').forgetThrottle(row.id);
      const updated = await this.getById(row.id);
      if (!updated) throw new Error('the subscription disappeared while it was updated');
      return updated;
    },

    /** The subscription, its topics, its deliveries and their attempts. */
    async remove(row: SubscriptionRow): Promise<void> {
      const deliveries = tableOf(strapi, UIDS.webhookDelivery);
      const attempts = tableOf(strapi, UIDS.webhookAttempt);
      // The delivery worker records outcomes in one statement that updates a subscription's
      // deliveries and its own row in no fixed order: deleting them at that moment can deadlock
      // on PostgreSQL (deleting a subscription while its test event is recorded did), so the
      // delete runs again if it is the one aborted.
      await retryOnDeadlock(() =>
        knex().transaction(async (trx) => {
          await trx(attempts)
            .whereIn('delivery_uuid', trx(deliveries).select('uuid').where({ subscription_id: row.id }))
            .delete();
          await trx(deliveries).where({ subscription_id: row.id }).delete();
          await trx(topicsTable()).where({ subscription_id: row.id }).delete();
          await trx(table()).where({ id: row.id }).delete();
        })
      );
      await this.forget(row.id);
    },

    /**
     * A new secret; the current one stays valid (as the second signature) for the rotation window.
     * The only write of `secret` and `secret_old` after `create` (`FIXED_COLUMNS`).
     */
    async rotate(row: SubscriptionRow): Promise<{ secret: string; validUntil: Date }> {
      const secret = generateSecret();
      const now = new Date();
      await knex()(table())
        .where({ id: row.id })
        .update({ secret: secretBox().seal(secret), secret_old: row.secret, secret_rotated_at: now, updated_at: now });
      await this.forget(row.id);
      return { secret, validUntil: new Date(now.getTime() + ROTATION_WINDOW_MS) };
    },

    /** The API's view of a subscription: never a secret (`subscriptions/rows.ts`). */
    present: (row: SubscriptionRow): Subscription => presentSubscription(row),

    /** The worker's view of subscriptions, cached (null for one that no longer exists): the cached ones, and the others in one query. */
    async targets(ids: number[]): Promise<Map<number, DeliveryTarget | null>> {
      const now = Date.now();
      const readAt = generation;
      const found = new Map<number, DeliveryTarget | null>();
      const missing: number[] = [];
      for (const id of ids) {
        const cached = this.cachedTarget(id);
        if (cached === undefined) missing.push(id);
        else found.set(id, cached);
      }
      for (let start = 0; start < missing.length; start += 500) {
        const part = missing.slice(start, start + 500);
        const rows = (await knex()(table()).select('*').whereIn('id', part)) as SubscriptionRow[];
        const byId = new Map(rows.map((row) => [row.id, row]));
        for (const id of part) {
          const row = byId.get(id);
          const target = row ? this.toTarget(row) : null;
          // A change while this was read may have made it stale: used once, not kept.
          if (generation === readAt) targets.set(id, { target, until: now + TARGET_TTL_MS });
          found.set(id, target);
        }
      }
      return found;
    },

    /**
     * A subscription's target as it is now, asked just before each send: the cached one unless a
     * change (here, or on another instance through Redis) cleared it since the send's job read it,
     * else read again, once for every send asking at the same time. So a send waiting for a request
     * slot when its subscription is deleted or disabled is cancelled rather than made.
     */
    current(id: number): Promise<DeliveryTarget | null> {
      const cached = this.cachedTarget(id);
      if (cached !== undefined) return Promise.resolve(cached);
      const under = reading.get(id);
      if (under && under.generation === generation) return under.target;
      const target = this.targets([id]).then((found) => found.get(id) ?? null);
      const entry = { generation, target };
      reading.set(id, entry);
      const done = () => void (reading.get(id) === entry && reading.delete(id));
      target.then(done, done);
      return target;
    },

    /** `current`'s answer when it is cached (no promise, no wait for a turn), else undefined. */
    cachedTarget(id: number): DeliveryTarget | null | undefined {
      const cached = targets.get(id);
      return cached && cached.until > Date.now() ? cached.target : undefined;
    },

    toTarget(row: SubscriptionRow): DeliveryTarget {
      return deliveryTarget(row, secretBox);
    },

    /** Replace a subscription's topics with its events list. */
    async writeTopics(trx: Knex, subscriptionId: number, events: string[], fresh = false): Promise<void> {
      if (!fresh) await trx(topicsTable()).where({ subscription_id: subscriptionId }).delete();
      const now = new Date();
      const rows = dedupe(events).map((event_type) => ({
        document_id: documentId(),
        subscription_id: subscriptionId,
        event_type,
        created_at: now,
        updated_at: now,
        published_at: now,
      }));
      if (rows.length > 0) await trx(topicsTable()).insert(rows);
    },

    /** Topics follow the row's events (after an edit that did not go through `update`, or to repair them). */
    async resyncTopics(subscriptionId: number): Promise<void> {
      const row = await this.getById(subscriptionId);
      await knex().transaction(async (trx) => {
        if (row) await this.writeTopics(trx, subscriptionId, eventsOf(row.events));
        else await trx(topicsTable()).where({ subscription_id: subscriptionId }).delete();
      });
      await this.forget(subscriptionId);
    },

    /** Topics whose subscription is gone (a bulk delete in the admin panel). */
    async pruneTopics(): Promise<void> {
      await knex()(topicsTable()).whereNotIn('subscription_id', knex()(table()).select('id')).delete();
      await this.forget('*');
    },

    /**
     * The active subscribers of each type through the topics index: those naming it, a prefix
     * pattern it falls under (`recipe.*`) or `*`; only the named consumers' own subscriptions when
     * the events are their business. Each comes with its payload filter, compiled once when it is
     * loaded. Answers are cached per topic until a subscription changes (here or, through Redis, on
     * any instance).
     */
    async subscribersOf(types: string[], consumers?: string | string[]): Promise<Map<string, Subscriber[]>> {
      const audienceList =
        consumers === undefined ? undefined : typeof consumers === 'string' ? [consumers] : [...new Set(consumers)].sort();
      // An audience of nobody (an order without a buyer and a site without administrators).
      if (audienceList?.length === 0) return new Map(types.map((type) => [type, []]));
      const audience = audienceList?.join(',') ?? '';
      const patternsByType = new Map(types.map((type) => [type, [type, ...patternsOf(type)]]));
      const wanted = [...new Set([...patternsByType.values()].flat())];
      const now = Date.now();
      const found = new Map<string, Subscriber[]>();
      const missing: string[] = [];
      for (const topic of wanted) {
        const cached = topics.get(`${audience}|${topic}`);
        if (cached && cached.until > now) found.set(topic, cached.subscribers);
        else missing.push(topic);
      }
      if (missing.length > 0) {
        const startedAt = generation;
        const query = knex()(`${topicsTable()} as t`)
          .join(`${table()} as s`, 's.id', 't.subscription_id')
          .whereIn('t.event_type', missing)
          .where('s.is_active', true)
          .select('t.event_type as event_type', 't.subscription_id as subscription_id', 's.filter as filter');
        if (audienceList !== undefined) query.whereIn('s.consumer_id', audienceList);
        const rows = (await query) as Array<{ event_type: string; subscription_id: number; filter: unknown }>;
        for (const topic of missing) found.set(topic, []);
        for (const row of rows) found.get(row.event_type)?.push(filters.subscriber(row.subscription_id, row.filter));
        if (generation === startedAt) {
          for (const topic of missing) {
            if (topics.size >= TOPICS_KEPT) topics.delete(topics.keys().next().value as string);
            topics.set(`${audience}|${topic}`, { subscribers: found.get(topic) ?? [], until: now + TOPICS_TTL_MS });
          }
        }
      }
      const result = new Map<string, Subscriber[]>();
      for (const [type, patterns] of patternsByType) {
        const lists = patterns.map((topic) => found.get(topic) ?? []).filter((list) => list.length > 0);
        if (lists.length <= 1) {
          result.set(type, lists[0] ?? []);
          continue;
        }
        // A subscription naming a type and a pattern it falls under receives it once.
        const byId = new Map<number, Subscriber>();
        for (const list of lists) for (const subscriber of list) byId.set(subscriber.id, subscriber);
        result.set(type, [...byId.values()]);
      }
      return result;
    },

    /** Clear the cached target here and, through Redis, on every other instance. */
    async forget(id: number | '*'): Promise<void> {
      forgetLocally(id);
      await getService(strapi, 'platform').broadcast(channel(), String(id));
    },

    async listen(): Promise<void> {
      if (listening) return;
      const subscriber = getService(strapi, 'platform').subscriber('webhooks');
      if (!subscriber) return;
      listening = true;
      subscriber.on('message', (_channel: string, message: string) => forgetLocally(message === '*' ? '*' : Number(message)));
      // Messages sent while disconnected are lost: start from a clean cache after every reconnect.
      subscriber.on('ready', () => forgetLocally('*'));
      await subscriber.subscribe(channel());
    },
  };
};

export type WebhookSubscriptionsService = ReturnType<typeof subscriptionsService>;
export default subscriptionsService;
