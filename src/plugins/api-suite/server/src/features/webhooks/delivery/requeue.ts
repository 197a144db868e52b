import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { UNSENT_CONDITION } from '../content-types/tables';
import { tableOf, toDate } from '../../../db';
import { getService } from '../../../utils';
import { DELIVER_JOB, DELIVERY_QUEUE, jobOptions, packSends, sendOf } from './jobs';
import type { DeliveryJobData, DeliveryRow } from './types';

const RECOVERY_PAGE = 1000;

/**
 * Enqueue the deliveries the database says are still to be sent: all of them at boot, or
 * those overdue since `overdueBefore` (their job was lost). Job ids make this idempotent.
 */
export async function requeueUnsent(strapi: Core.Strapi, overdueBefore?: Date): Promise<number> {
  const knex = () => strapi.db.connection;
  const deliveries = () => tableOf(strapi, UIDS.webhookDelivery);
  const jobs = () => getService(strapi, 'platform').jobs();
  let lastId = 0;
  let total = 0;
  for (;;) {
    const query = knex()(deliveries())
      .select('id', 'uuid', 'subscription_id', 'event_type', 'payload', 'attempts', 'next_attempt_at', 'created_at', 'trace_context')
      .whereRaw(UNSENT_CONDITION)
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
          data: packSends([sendOf(row, attempt)]),
          options: jobOptions(row.uuid, attempt, Math.max(0, due - now)),
        };
      })
    );
    total += rows.length;
    if (rows.length < RECOVERY_PAGE) return total;
  }
}
