import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { documentId } from '../../../random';
import { dialectOf, fromJson, insertChunked, rowsOf, tableOf, toBool, toCount, toDate, toIso, updateMany } from '../../../db';
import type { Job, JobDefinition } from '../../../jobs';
import { EndpointNotAllowedError, OutboundTimeoutError } from '../../../outbound';
import { getConfig, getService } from '../../../utils';
import { TEST_EVENT_TYPE } from '../event-catalog';
import { honoursRetryAfter, parseRetryAfter, retryDelaySeconds } from '../retry';
import { signatureHeader } from '../signing';
import type { DeliveryTarget } from './subscriptions';

export const DELIVERY_QUEUE = 'webhook-deliveries';
const DELIVER_JOB = 'deliver';
/** Consecutive failed attempts that disable a subscription. */
export const DISABLE_AFTER_FAILURES = 100;
/** Response bodies are kept on the attempt up to this size. */
export const RESPONSE_BODY_LIMIT = 2048;
const FLUSH_INTERVAL_MS = 100;
const FLUSH_SIZE = 1000;
/** Pending work older than this with no sign of life is enqueued again (it lost its job). */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_OVERDUE_MS = 120_000;
const RECOVERY_PAGE = 1000;

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'retrying' | 'cancelled';

/** What a delivery job carries: everything needed to send, so the hot path reads nothing. */
export interface DeliveryJobData {
  /** The delivery's UUID: the webhook-id. */
  delivery: string;
  subscription: number;
  type: string;
  /** The exact request body, built once per event. */
  body: string;
  attempt: number;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  retryAfterSeconds?: number;
}

export interface DeliveryRow {
  id: number;
  uuid: string;
  subscription_id: number;
  event_id: string;
  event_type: string;
  payload: unknown;
  status: DeliveryStatus;
  attempts: number | null;
  next_attempt_at: unknown;
  response_status: number | null;
  delivered_at: unknown;
  created_at: unknown;
}

interface AttemptRecord {
  delivery_uuid: string;
  attempt: number;
  at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
}

interface DeliveryState {
  uuid: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  response_status: number | null;
  delivered_at: Date | null;
  updated_at: Date;
}

/**
 * The delivery engine: the worker that sends each delivery job, the record of every attempt,
 * the retry schedule, and the failure accounting that disables a subscription at its 100th
 * consecutive failed attempt. Attempts and delivery states are written in batches off the hot
 * path (every 100 ms); a failure is counted at once, so the 100th is exact.
 */
const deliveriesService = ({ strapi }: { strapi: Core.Strapi }) => {
  const table = () => tableOf(strapi, UIDS.webhookDelivery);
  const attemptsTable = () => tableOf(strapi, UIDS.webhookAttempt);
  const subscriptionsTable = () => tableOf(strapi, UIDS.webhookSubscription);
  const knex = () => strapi.db.connection;
  const jobs = () => getService(strapi, 'platform').jobs();
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');

  let attemptsBuffer: AttemptRecord[] = [];
  let statesBuffer = new Map<string, DeliveryState>();
  let successesBuffer = new Map<number, Date>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let sweeper: NodeJS.Timeout | undefined;
  let started = false;

  const schedule = () => getConfig(strapi).webhooks.retryScheduleSeconds;

  const scheduleFlush = () => {
    if (attemptsBuffer.length + statesBuffer.size >= FLUSH_SIZE) void service.flush();
    else timer ??= setTimeout(() => void service.flush(), FLUSH_INTERVAL_MS);
  };

  const writeBuffers = async (attempts: AttemptRecord[], states: DeliveryState[], successes: Array<[number, Date]>) => {
    const now = new Date();
    const client = dialectOf(strapi);
    if (attempts.length > 0) {
      await insertChunked(
        knex(),
        attemptsTable(),
        attempts.map((attempt) => ({ document_id: documentId(), ...attempt, created_at: now, updated_at: now, published_at: now }))
      );
    }
    await updateMany(
      knex(),
      client,
      table(),
      { name: 'uuid', kind: 'text' },
      [
        { name: 'status', kind: 'text' },
        { name: 'attempts', kind: 'integer' },
        { name: 'next_attempt_at', kind: 'timestamp' },
        { name: 'response_status', kind: 'integer' },
        { name: 'delivered_at', kind: 'timestamp', keepWhenNull: true },
        { name: 'updated_at', kind: 'timestamp' },
      ],
      states as unknown as Array<Record<string, unknown>>
    );
    await updateMany(
      knex(),
      client,
      subscriptionsTable(),
      { name: 'id', kind: 'integer' },
      [
        { name: 'failure_count', kind: 'integer' },
        { name: 'last_delivery_at', kind: 'timestamp' },
      ],
      successes.map(([id, at]) => ({ id, failure_count: 0, last_delivery_at: at }))
    );
  };

  const service = {
    /** Start the worker, take up the work the database says is pending, and sweep for lost jobs. */
    async start(): Promise<void> {
      if (started) return;
      started = true;
      const concurrency = getConfig(strapi).webhooks.concurrency;
      jobs().process<DeliveryJobData>(DELIVERY_QUEUE, (job) => this.handle(job), { concurrency });
      const recovered = await this.recover();
      if (recovered > 0) strapi.log.info(`[api-suite] webhooks: took up ${recovered} pending deliveries`);
      sweeper = setInterval(() => {
        this.recover(new Date(Date.now() - SWEEP_OVERDUE_MS)).then(
          (count) => count > 0 && strapi.log.warn(`[api-suite] webhooks: re-enqueued ${count} overdue deliveries`),
          (error: Error) => strapi.log.error(`[api-suite] webhooks: sweep failed: ${error.message}`)
        );
      }, SWEEP_INTERVAL_MS);
      sweeper.unref();
    },

    /** Whether this process runs the delivery worker. */
    running(): boolean {
      return started;
    },

    async stop(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      await this.flush();
    },

    /** The job for one attempt of one delivery. */
    async handle(job: Job<DeliveryJobData>): Promise<void> {
      const data = job.data;
      const target = await subscriptions().target(data.subscription);
      if (!target || !target.isActive) {
        // Deleted or disabled since the event was published: nothing more is sent.
        this.setState({ uuid: data.delivery, status: 'cancelled', attempts: data.attempt - 1, next_attempt_at: null, response_status: null, delivered_at: null });
        return;
      }
      const outcome = await this.attempt(target, data);
      await this.settle(target, data, outcome, { retry: data.type !== TEST_EVENT_TYPE });
    },

    /** One signed POST to the endpoint; never throws. */
    async attempt(target: DeliveryTarget, data: DeliveryJobData): Promise<AttemptOutcome> {
      const timestamp = Math.floor(Date.now() / 1000);
      const headers: Record<string, string> = {
        ...target.headers,
        'content-type': 'application/json',
        'webhook-id': data.delivery,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(target.secrets, data.delivery, timestamp, data.body),
        'x-webhook-event': data.type,
      };
      const started = Date.now();
      try {
        const response = await getService(strapi, 'platform').outbound().request(target.endpointUrl, {
          method: 'POST',
          headers,
          body: data.body,
          timeoutMs: target.timeoutMs,
          maxResponseBytes: RESPONSE_BODY_LIMIT,
        });
        const ok = response.status >= 200 && response.status < 300;
        return {
          ok,
          statusCode: response.status,
          durationMs: response.durationMs,
          error: ok ? null : `HTTP ${response.status}`,
          responseBody: response.body === '' ? null : response.body,
          retryAfterSeconds: honoursRetryAfter(response.status) ? parseRetryAfter(response.headers['retry-after']) : undefined,
        };
      } catch (error) {
        return { ok: false, statusCode: null, durationMs: Date.now() - started, error: describeFailure(error), responseBody: null };
      }
    },

    /**
     * Record an attempt and move the delivery on: succeeded, retrying (next job enqueued now,
     * so a crash cannot lose it), or failed. Counts the attempt on the subscription.
     */
    async settle(target: DeliveryTarget, data: DeliveryJobData, outcome: AttemptOutcome, options: { retry: boolean }): Promise<DeliveryStatus> {
      const now = new Date();
      attemptsBuffer.push({
        delivery_uuid: data.delivery,
        attempt: data.attempt,
        at: new Date(now.getTime() - outcome.durationMs),
        status_code: outcome.statusCode,
        duration_ms: outcome.durationMs,
        error: outcome.error,
        response_body: outcome.responseBody,
      });
      const base = { uuid: data.delivery, attempts: data.attempt, response_status: outcome.statusCode };
      if (outcome.ok) {
        successesBuffer.set(target.id, now);
        this.setState({ ...base, status: 'succeeded', next_attempt_at: null, delivered_at: now });
        return 'succeeded';
      }

      const { active } = await this.countFailure(target.id);
      const delay = active && options.retry ? retryDelaySeconds(schedule(), data.attempt, outcome.retryAfterSeconds) : null;
      if (delay === null) {
        this.setState({ ...base, status: 'failed', next_attempt_at: null, delivered_at: null });
        return 'failed';
      }
      const nextAt = new Date(now.getTime() + delay * 1000);
      await jobs().enqueue<DeliveryJobData>(DELIVERY_QUEUE, DELIVER_JOB, { ...data, attempt: data.attempt + 1 }, jobOptions(data.delivery, data.attempt + 1, delay * 1000));
      this.setState({ ...base, status: 'retrying', next_attempt_at: nextAt, delivered_at: null });
      return 'retrying';
    },

    setState(state: Omit<DeliveryState, 'updated_at'>): void {
      statesBuffer.set(state.uuid, { ...state, updated_at: new Date() });
      scheduleFlush();
    },

    /**
     * failure_count + 1, and at the 100th the subscription is disabled in the same statement, so
     * exactly one caller (on any instance) sees the transition and notifies the owner. Successes
     * buffered before this failure are written first, or their reset would land after it.
     * `active` is false when the subscription was already inactive: the attempt is not counted.
     */
    async countFailure(subscriptionId: number): Promise<{ active: boolean; failureCount: number }> {
      if (successesBuffer.has(subscriptionId)) await this.flush();
      const result = await knex().raw(
        `UPDATE ?? SET failure_count = failure_count + 1,
           is_active = CASE WHEN failure_count + 1 >= ? THEN ? ELSE is_active END,
           disabled_at = CASE WHEN failure_count + 1 >= ? THEN ? ELSE disabled_at END
         WHERE id = ? AND is_active = ?
         RETURNING failure_count, is_active`,
        [subscriptionsTable(), DISABLE_AFTER_FAILURES, false, DISABLE_AFTER_FAILURES, new Date(), subscriptionId, true]
      );
      const row = rowsOf<{ failure_count: number; is_active: unknown }>(result)[0];
      if (!row) return { active: false, failureCount: 0 };
      const failureCount = Number(row.failure_count);
      if (toBool(row.is_active)) return { active: true, failureCount };
      await this.onDisabled(subscriptionId);
      return { active: false, failureCount };
    },

    /** Stop the subscription's pending work and tell its owner, once. */
    async onDisabled(subscriptionId: number): Promise<void> {
      await subscriptions().forget(subscriptionId);
      await this.flush();
      const pending = (await knex()(table())
        .select('uuid', 'attempts')
        .where({ subscription_id: subscriptionId })
        .whereIn('status', ['pending', 'retrying'])) as Array<{ uuid: string; attempts: number | null }>;
      await knex()(table())
        .where({ subscription_id: subscriptionId })
        .whereIn('status', ['pending', 'retrying'])
        .update({ status: 'cancelled', next_attempt_at: null, updated_at: new Date() });
      // Jobs that slip through find the subscription inactive and stop there.
      await Promise.allSettled(pending.map((row) => jobs().cancel(DELIVERY_QUEUE, jobIdOf(row.uuid, (row.attempts ?? 0) + 1))));
      await this.notifyDisabled(subscriptionId).catch((error: Error) =>
        strapi.log.error(`[api-suite] webhooks: could not e-mail the owner of a disabled subscription: ${error.message}`)
      );
    },

    async notifyDisabled(subscriptionId: number): Promise<void> {
      const row = await subscriptions().getById(subscriptionId);
      if (!row) return;
      strapi.log.warn(`[api-suite] webhooks: subscription ${row.uuid} disabled after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries`);
      const owner = (await strapi.db.query(UIDS.user).findOne({ where: { consumer_id: row.consumer_id }, select: ['email', 'username'] })) as
        | { email?: string; username?: string }
        | null;
      if (!owner?.email) return;
      const email = strapi.plugin('email')?.service('email') as { send(options: Record<string, unknown>): Promise<unknown> } | undefined;
      if (!email) {
        strapi.log.warn('[api-suite] webhooks: the email plugin is not installed; the owner was not notified');
        return;
      }
      const lines = [
        `Hello ${owner.username ?? ''},`.trim(),
        '',
        `Your webhook subscription ${row.uuid} to ${row.endpoint_url} was disabled after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries.`,
        'No further events are sent to it, and its pending retries were cancelled.',
        '',
        'Once the endpoint answers with a 2xx status again, re-enable it with:',
        `  PATCH /api/webhooks/subscriptions/${row.uuid}  { "is_active": true }`,
      ];
      await email.send({ to: owner.email, subject: 'Your webhook subscription was disabled', text: lines.join('\n') });
    },

    /** Write the buffered attempts, delivery states and success resets; resolves once they are stored. */
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const attempts = attemptsBuffer;
      const states = [...statesBuffer.values()];
      const successes = [...successesBuffer.entries()];
      attemptsBuffer = [];
      statesBuffer = new Map();
      successesBuffer = new Map();
      flushing = flushing.then(async () => {
        if (attempts.length + states.length + successes.length === 0) return;
        try {
          await writeBuffers(attempts, states, successes);
        } catch (error) {
          // Lost outcomes leave deliveries pending; the sweep sends them again (at least once).
          strapi.log.error(`[api-suite] webhooks: could not record ${attempts.length} attempts: ${(error as Error).message}`);
        }
      });
      return flushing;
    },

    /**
     * Enqueue the deliveries the database says are still to be sent: all of them at boot, or
     * those overdue since `overdueBefore` (their job was lost). Job ids make this idempotent.
     */
    async recover(overdueBefore?: Date): Promise<number> {
      let lastId = 0;
      let total = 0;
      for (;;) {
        const query = knex()(table())
          .select('id', 'uuid', 'subscription_id', 'event_type', 'payload', 'attempts', 'next_attempt_at', 'created_at')
          .whereIn('status', ['pending', 'retrying'])
          .where('id', '>', lastId)
          .orderBy('id', 'asc')
          .limit(RECOVERY_PAGE);
        if (overdueBefore) query.where('next_attempt_at', '<', overdueBefore);
        const rows = (await query) as DeliveryRow[];
        if (rows.length === 0) return total;
        lastId = rows[rows.length - 1].id;
        const now = Date.now();
        await jobs().enqueueBulk<DeliveryJobData>(
          DELIVERY_QUEUE,
          rows.map((row) => {
            const attempt = (row.attempts ?? 0) + 1;
            const due = toDate(row.next_attempt_at)?.getTime() ?? now;
            return {
              name: DELIVER_JOB,
              data: { delivery: row.uuid, subscription: row.subscription_id, type: row.event_type, body: bodyOf(row), attempt },
              options: jobOptions(row.uuid, attempt, Math.max(0, due - now)),
            };
          })
        );
        total += rows.length;
        if (rows.length < RECOVERY_PAGE) return total;
      }
    },

    /** Jobs for freshly inserted deliveries: their ids are new, so no de-duplication lookups. */
    async enqueueNew(items: DeliveryJobData[]): Promise<void> {
      const definitions: JobDefinition<DeliveryJobData>[] = items.map((data) => ({ name: DELIVER_JOB, data, options: jobOptions(data.delivery, data.attempt, 0) }));
      for (let start = 0; start < definitions.length; start += 5000) {
        await jobs().enqueueBulk(DELIVERY_QUEUE, definitions.slice(start, start + 5000), { freshIds: true });
      }
    },

    /** A delivery record for an event sent right away by the caller rather than by a job (the on-demand test). */
    async createInline(subscriptionId: number, type: string, payload: Record<string, unknown>): Promise<DeliveryJobData> {
      const uuid = randomUUID();
      const now = new Date();
      const payloadJson = JSON.stringify(payload);
      await knex()(table()).insert({
        document_id: uuid,
        uuid,
        subscription_id: subscriptionId,
        event_id: randomUUID(),
        event_type: type,
        payload: payloadJson,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
        published_at: now,
      });
      return { delivery: uuid, subscription: subscriptionId, type, body: buildBody(type, now.toISOString(), payloadJson), attempt: 1 };
    },

    /** Send a delivery again now (manual retry); its next attempt number continues the count. */
    async retry(row: DeliveryRow): Promise<void> {
      await this.flush();
      const current = (await knex()(table()).select('attempts').where({ uuid: row.uuid }).first()) as { attempts: number | null } | undefined;
      const attempt = (current?.attempts ?? 0) + 1;
      const jobId = jobIdOf(row.uuid, attempt);
      // A retry already scheduled for later is brought forward rather than doubled.
      await jobs().cancel(DELIVERY_QUEUE, jobId);
      await knex()(table()).where({ uuid: row.uuid }).update({ status: 'pending', next_attempt_at: new Date(), updated_at: new Date() });
      await jobs().enqueue<DeliveryJobData>(
        DELIVERY_QUEUE,
        DELIVER_JOB,
        { delivery: row.uuid, subscription: row.subscription_id, type: row.event_type, body: bodyOf(row), attempt },
        jobOptions(row.uuid, attempt, 0)
      );
    },

    async list(subscriptionId: number, options: { status?: DeliveryStatus; page: number; limit: number }): Promise<{ rows: DeliveryRow[]; total: number }> {
      await this.flush();
      const scoped = () => {
        const query = knex()(table()).where({ subscription_id: subscriptionId });
        if (options.status) query.where({ status: options.status });
        return query;
      };
      const [rows, counted] = await Promise.all([
        scoped()
          .select('id', 'uuid', 'subscription_id', 'event_id', 'event_type', 'payload', 'status', 'attempts', 'next_attempt_at', 'response_status', 'delivered_at', 'created_at')
          .orderBy('id', 'desc')
          .limit(options.limit)
          .offset((options.page - 1) * options.limit),
        scoped().count({ count: '*' }).first(),
      ]);
      return { rows: rows as DeliveryRow[], total: toCount((counted as { count?: unknown } | undefined)?.count) };
    },

    async get(uuid: string): Promise<DeliveryRow | null> {
      await this.flush();
      return ((await knex()(table()).select('*').where({ uuid }).first()) as DeliveryRow | undefined) ?? null;
    },

    async attemptsOf(uuid: string) {
      const rows = (await knex()(attemptsTable())
        .select('attempt', 'at', 'status_code', 'duration_ms', 'error', 'response_body')
        .where({ delivery_uuid: uuid })
        .orderBy('attempt', 'asc')
        .orderBy('id', 'asc')) as Array<Omit<AttemptRecord, 'delivery_uuid' | 'at'> & { at: unknown }>;
      return rows.map((row) => ({
        attempt: row.attempt,
        at: toIso(row.at),
        status_code: row.status_code ?? null,
        duration_ms: row.duration_ms ?? null,
        error: row.error ?? null,
        response_body: row.response_body ?? null,
      }));
    },

    present(row: DeliveryRow, subscriptionUuid: string) {
      return {
        id: row.uuid,
        subscription_id: subscriptionUuid,
        event_id: row.event_id,
        event_type: row.event_type,
        payload: fromJson<unknown>(row.payload, null),
        status: row.status,
        attempts: row.attempts ?? 0,
        next_attempt_at: toIso(row.next_attempt_at),
        response_status: row.response_status ?? null,
        created_at: toIso(row.created_at),
        delivered_at: toIso(row.delivered_at),
      };
    },
  };
  return service;
};

/** One job per attempt, so a retry scheduled later never collides with the attempt that scheduled it. */
export function jobIdOf(deliveryUuid: string, attempt: number): string {
  return `${deliveryUuid}-${attempt}`;
}

function jobOptions(deliveryUuid: string, attempt: number, delayMs: number) {
  // Attempts here cover faults of our own (the database briefly away), not the endpoint's answers.
  return { jobId: jobIdOf(deliveryUuid, attempt), delayMs, attempts: 3, backoff: { type: 'exponential' as const, delayMs: 1000 } };
}

/** The delivery body, `{ type, timestamp, data }`, with the event's time as the timestamp. */
export function buildBody(type: string, timestamp: string, payloadJson: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(timestamp)},"data":${payloadJson}}`;
}

function bodyOf(row: Pick<DeliveryRow, 'event_type' | 'payload' | 'created_at'>): string {
  const payload = typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload ?? null);
  return buildBody(row.event_type, toIso(row.created_at) ?? new Date().toISOString(), payload);
}

function describeFailure(error: unknown): string {
  if (error instanceof EndpointNotAllowedError) return `endpoint_not_allowed: ${error.message}`;
  if (error instanceof OutboundTimeoutError) return `timeout: ${error.message}`;
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

export type WebhookDeliveriesService = ReturnType<typeof deliveriesService>;
export default deliveriesService;
