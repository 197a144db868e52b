import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { documentId } from '../../../random';
import { dialectOf, fromJson, insertRows, rowsOf, tableOf, toBool, toCount, toDate, toIso, toIsoRequired, updateMany, type Column } from '../../../db';
import type { Job, JobDefinition } from '../../../jobs';
import { EndpointNotAllowedError, OutboundTimeoutError } from '../../../outbound';
import { getConfig, getService } from '../../../utils';
import { TEST_EVENT_TYPE } from './event-catalog';
import { honoursRetryAfter, parseRetryAfter, retryDelaySeconds } from './retry';
import { signatureHeader } from './signing';
import type { DeliveryTarget } from './subscriptions';
import type { Attempt, Delivery } from '../validation/responses';

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
/**
 * Fresh deliveries travel in jobs of up to this many sends: the queue's own cost (a few Redis
 * scripts per job) is paid once per batch rather than once per delivery. Each send still
 * succeeds, fails and is retried on its own; retries are jobs of one send.
 */
export const SENDS_PER_JOB = 50;

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'retrying' | 'cancelled';

/** One attempt at one delivery: everything needed to send it, so the hot path reads nothing else. */
export interface DeliverySend {
  /** The delivery's UUID: the webhook-id. */
  delivery: string;
  subscription: number;
  type: string;
  /** The exact request body, built once per event. */
  body: string;
  attempt: number;
}

/** What a delivery job carries: sends made together, each body stored once however many subscriptions share it. */
export interface DeliveryJobData {
  bodies: string[];
  sends: Array<Omit<DeliverySend, 'body'> & { body: number }>;
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
  /** The latest write of the buffers, rejecting when it failed (`flushing` never rejects). */
  let lastWrite: Promise<void> = Promise.resolve();
  let recordWaiters: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  let sweeper: NodeJS.Timeout | undefined;
  let started = false;
  /** Sends under way in this process, so a duplicate job (a recovered one) does not send the same attempt twice at once. */
  const inFlight = new Set<string>();
  /** Requests open at once across every job of this process. */
  let limiter = createLimiter(1);

  const schedule = () => getConfig(strapi).webhooks.retryScheduleSeconds;

  const scheduleFlush = () => {
    if (attemptsBuffer.length + statesBuffer.size >= FLUSH_SIZE) void service.flush();
    else timer ??= setTimeout(() => void service.flush(), FLUSH_INTERVAL_MS);
  };

  const writeBuffers = async (attempts: AttemptRecord[], states: DeliveryState[], successes: Array<[number, Date]>) => {
    const now = new Date();
    const client = dialectOf(strapi);
    await insertRows(
      knex(),
      client,
      attemptsTable(),
      ATTEMPT_COLUMNS,
      attempts.map((attempt) => ({ document_id: documentId(), ...attempt, created_at: now, updated_at: now, published_at: now }))
    );
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
      limiter = createLimiter(concurrency);
      // As many jobs as requests: a job waiting on one slow endpoint must not keep the others' sends from starting.
      jobs().process<DeliveryJobData>(DELIVERY_QUEUE, (job) => this.handle(job), { concurrency });
      // Jobs of the in-process driver died with the process that held them: everything pending is
      // taken up again. BullMQ kept its jobs in Redis (a killed worker's are re-run as stalled);
      // the sweep finds any that were lost.
      if (jobs().driver === 'in-process') {
        const recovered = await this.recover();
        if (recovered > 0) strapi.log.info(`[api-suite] webhooks: took up ${recovered} pending deliveries`);
      }
      sweeper = setInterval(() => {
        this.sweep().then(
          (count) => count > 0 && strapi.log.warn(`[api-suite] webhooks: re-enqueued ${count} overdue deliveries`),
          (error: Error) => strapi.log.error(`[api-suite] webhooks: sweep failed: ${error.message}`)
        );
      }, SWEEP_INTERVAL_MS);
      sweeper.unref();
    },

    /**
     * Deliveries overdue by two minutes lost their job (Redis was down when they were published,
     * or lost its data). Only looked for while the queue has nothing waiting: a backlog being
     * worked through is late, not lost.
     */
    async sweep(): Promise<number> {
      const counts = await jobs().counts(DELIVERY_QUEUE);
      if (counts.waiting > 0) return 0;
      return this.recover(new Date(Date.now() - SWEEP_OVERDUE_MS));
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

    /**
     * A job: its sends that are still due, each sent and settled on its own. The job ends once
     * their outcomes are stored, and fails (to be tried again by the queue) when they could not
     * be; the next try skips the sends whose outcome did get stored.
     */
    async handle(job: Job<DeliveryJobData>): Promise<void> {
      const sends = await this.due(unpackSends(job.data));
      if (sends.length === 0) return;
      const targets = await subscriptions().targets([...new Set(sends.map((send) => send.subscription))]);
      const results = await Promise.allSettled(sends.map((send) => this.deliver(targets.get(send.subscription) ?? null, send)));
      const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failures.length > 0) {
        throw new Error(`${failures.length} of ${sends.length} deliveries could not be recorded: ${(failures[0].reason as Error)?.message ?? failures[0].reason}`);
      }
      await this.recorded();
    },

    /**
     * The sends of a job that are still to be made: not already under way or settled in this
     * process, and not recorded as done (or as further along) in the database. This is what makes
     * a job run twice (a stalled job re-run, a swept delivery whose first job turns up) harmless.
     */
    async due(sends: DeliverySend[]): Promise<DeliverySend[]> {
      const fresh = sends.filter((send) => !inFlight.has(keyOf(send)) && (statesBuffer.get(send.delivery)?.attempts ?? 0) < send.attempt);
      if (fresh.length === 0) return [];
      const rows = (await knex()(table())
        .select('uuid', 'status', 'attempts')
        .whereIn(
          'uuid',
          fresh.map((send) => send.delivery)
        )) as Array<{ uuid: string; status: DeliveryStatus; attempts: number | null }>;
      const stored = new Map(rows.map((row) => [row.uuid, row]));
      return fresh.filter((send) => {
        const row = stored.get(send.delivery);
        // Gone: its subscription was deleted.
        if (!row || FINAL_STATUSES.has(row.status)) return false;
        return (row.attempts ?? 0) < send.attempt;
      });
    },

    /** Send one attempt and settle it: cancelled when the subscription is gone or disabled. */
    async deliver(target: DeliveryTarget | null, send: DeliverySend): Promise<void> {
      const key = keyOf(send);
      if (inFlight.has(key)) return;
      inFlight.add(key);
      try {
        if (!target || !target.isActive) {
          // Deleted or disabled since the event was published: nothing more is sent.
          this.setState({ uuid: send.delivery, status: 'cancelled', attempts: send.attempt - 1, next_attempt_at: null, response_status: null, delivered_at: null });
          return;
        }
        const outcome = await limiter(() => this.attempt(target, send));
        await this.settle(target, send, outcome, { retry: send.type !== TEST_EVENT_TYPE });
      } finally {
        inFlight.delete(key);
      }
    },

    /** One signed POST to the endpoint; never throws. */
    async attempt(target: DeliveryTarget, data: DeliverySend): Promise<AttemptOutcome> {
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
    async settle(target: DeliveryTarget, data: DeliverySend, outcome: AttemptOutcome, options: { retry: boolean }): Promise<DeliveryStatus> {
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
      await jobs().enqueue<DeliveryJobData>(DELIVERY_QUEUE, DELIVER_JOB, packSends([{ ...data, attempt: data.attempt + 1 }]), jobOptions(data.delivery, data.attempt + 1, delay * 1000));
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
      const waiters = recordWaiters;
      recordWaiters = [];
      const write = flushing.then(() => (attempts.length + states.length + successes.length === 0 ? undefined : writeBuffers(attempts, states, successes)));
      lastWrite = write;
      write.then(
        () => waiters.forEach((waiter) => waiter.resolve()),
        (error: unknown) => waiters.forEach((waiter) => waiter.reject(error))
      );
      flushing = write.catch((error: Error) => {
        // The jobs waiting on these outcomes fail and are tried again; sends already made are made again (at least once).
        strapi.log.error(`[api-suite] webhooks: could not record ${attempts.length} attempts: ${error.message}`);
      });
      return flushing;
    },

    /**
     * Resolves once the outcomes buffered so far are stored: with the next batched write, not a
     * write of its own. A job ends only then, so a worker killed between a send and its record
     * leaves the job to be run again (as stalled) rather than a delivery stuck as pending.
     */
    recorded(): Promise<void> {
      if (attemptsBuffer.length + statesBuffer.size + successesBuffer.size === 0) return lastWrite;
      return new Promise<void>((resolve, reject) => {
        recordWaiters.push({ resolve, reject });
        scheduleFlush();
      });
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
              data: packSends([{ delivery: row.uuid, subscription: row.subscription_id, type: row.event_type, body: bodyOf(row), attempt }]),
              options: jobOptions(row.uuid, attempt, Math.max(0, due - now)),
            };
          })
        );
        total += rows.length;
        if (rows.length < RECOVERY_PAGE) return total;
      }
    },

    /**
     * Jobs for freshly inserted deliveries, `SENDS_PER_JOB` sends each, in one bulk enqueue. Their
     * ids are new (named after their first delivery), so no de-duplication lookups.
     */
    async enqueueNew(sends: DeliverySend[]): Promise<void> {
      const definitions: JobDefinition<DeliveryJobData>[] = [];
      for (let start = 0; start < sends.length; start += SENDS_PER_JOB) {
        const part = sends.slice(start, start + SENDS_PER_JOB);
        definitions.push({ name: DELIVER_JOB, data: packSends(part), options: { ...jobOptions(part[0].delivery, part[0].attempt, 0), jobId: `batch-${part[0].delivery}` } });
      }
      await jobs().enqueueBulk(DELIVERY_QUEUE, definitions, { freshIds: true });
    },

    /** A delivery record for an event sent right away by the caller rather than by a job (the on-demand test). */
    async createInline(subscriptionId: number, type: string, payload: Record<string, unknown>): Promise<DeliverySend> {
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
        packSends([{ delivery: row.uuid, subscription: row.subscription_id, type: row.event_type, body: bodyOf(row), attempt }]),
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

    async attemptsOf(uuid: string): Promise<Attempt[]> {
      const rows = (await knex()(attemptsTable())
        .select('attempt', 'at', 'status_code', 'duration_ms', 'error', 'response_body')
        .where({ delivery_uuid: uuid })
        .orderBy('attempt', 'asc')
        .orderBy('id', 'asc')) as Array<Omit<AttemptRecord, 'delivery_uuid' | 'at'> & { at: unknown }>;
      return rows.map((row) => ({
        attempt: row.attempt,
        at: toIsoRequired(row.at, 'at'),
        status_code: row.status_code ?? null,
        duration_ms: row.duration_ms ?? null,
        error: row.error ?? null,
        response_body: row.response_body ?? null,
      }));
    },

    /** A delivery as the API answers it (typed by the response schema, so the two cannot drift). */
    present(row: DeliveryRow, subscriptionUuid: string): Delivery {
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
        created_at: toIsoRequired(row.created_at, 'created_at'),
        delivered_at: toIso(row.delivered_at),
      };
    },
  };
  return service;
};

/** One job per retry, so a retry scheduled later never collides with the attempt that scheduled it. */
export function jobIdOf(deliveryUuid: string, attempt: number): string {
  return `${deliveryUuid}-${attempt}`;
}

/** Sends into a job's data, each distinct body once. */
export function packSends(sends: DeliverySend[]): DeliveryJobData {
  const bodies: string[] = [];
  const index = new Map<string, number>();
  return {
    bodies,
    sends: sends.map(({ body, ...send }) => {
      let at = index.get(body);
      if (at === undefined) {
        at = bodies.push(body) - 1;
        index.set(body, at);
      }
      return { ...send, body: at };
    }),
  };
}

export function unpackSends(data: DeliveryJobData): DeliverySend[] {
  return data.sends.map((send) => ({ ...send, body: data.bodies[send.body] }));
}

const FINAL_STATUSES = new Set<DeliveryStatus>(['succeeded', 'failed', 'cancelled']);

/** The columns a delivery record is inserted with (publishing). */
export const DELIVERY_COLUMNS: Column[] = [
  { name: 'document_id', kind: 'text' },
  { name: 'uuid', kind: 'text' },
  { name: 'subscription_id', kind: 'integer' },
  { name: 'event_id', kind: 'text' },
  { name: 'event_type', kind: 'text' },
  { name: 'payload', kind: 'json' },
  { name: 'status', kind: 'text' },
  { name: 'attempts', kind: 'integer' },
  { name: 'next_attempt_at', kind: 'timestamp' },
  { name: 'created_at', kind: 'timestamp' },
  { name: 'updated_at', kind: 'timestamp' },
  { name: 'published_at', kind: 'timestamp' },
];

const ATTEMPT_COLUMNS: Column[] = [
  { name: 'document_id', kind: 'text' },
  { name: 'delivery_uuid', kind: 'text' },
  { name: 'attempt', kind: 'integer' },
  { name: 'at', kind: 'timestamp' },
  { name: 'status_code', kind: 'integer' },
  { name: 'duration_ms', kind: 'integer' },
  { name: 'error', kind: 'text' },
  { name: 'response_body', kind: 'text' },
  { name: 'created_at', kind: 'timestamp' },
  { name: 'updated_at', kind: 'timestamp' },
  { name: 'published_at', kind: 'timestamp' },
];

function keyOf(send: DeliverySend): string {
  return `${send.delivery}-${send.attempt}`;
}

/** At most `size` of the given tasks run at once; the others wait their turn, first come first served. */
function createLimiter(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    // A finishing task hands its slot straight to the next in line, so none can slip in between.
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
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
