import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { fromJson, tableOf, toCount, toIso, toIsoRequired } from '../../../db';
import type { Attempt, Delivery } from '../validation/responses';
import type { Recorder } from './recorder';
import type { AttemptRecord, DeliveryRow, DeliveryStatus } from './types';

/**
 * The read model: deliveries and their attempts as the API and the admin panel list them. Each
 * read writes the recorder's buffer first, so what was just sent is seen.
 */
export function createReadModel(strapi: Core.Strapi, recorder: Recorder) {
  const knex = () => strapi.db.connection;
  const deliveries = () => tableOf(strapi, UIDS.webhookDelivery);

  return {
    async list(
      subscriptionId: number,
      options: { status?: DeliveryStatus; page: number; limit: number }
    ): Promise<{ rows: DeliveryRow[]; total: number }> {
      await recorder.flush();
      const scoped = () => {
        const query = knex()(deliveries()).where({ subscription_id: subscriptionId });
        if (options.status) query.where({ status: options.status });
        return query;
      };
      const [rows, counted] = await Promise.all([
        scoped()
          .select(
            'id',
            'uuid',
            'subscription_id',
            'event_id',
            'event_type',
            'payload',
            'status',
            'attempts',
            'next_attempt_at',
            'response_status',
            'delivered_at',
            'created_at'
          )
          .orderBy('id', 'desc')
          .limit(options.limit)
          .offset((options.page - 1) * options.limit),
        scoped().count({ count: '*' }).first(),
      ]);
      return { rows: rows as DeliveryRow[], total: toCount((counted as { count?: unknown } | undefined)?.count) };
    },

    async get(uuid: string): Promise<DeliveryRow | null> {
      await recorder.flush();
      return ((await knex()(deliveries()).select('*').where({ uuid }).first()) as DeliveryRow | undefined) ?? null;
    },

    async attemptsOf(uuid: string): Promise<Attempt[]> {
      const rows = (await knex()(tableOf(strapi, UIDS.webhookAttempt))
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
}
