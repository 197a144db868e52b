import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { cutoffOf, deleteInChunks, dialectOf, keysetPurge, lockedForPurge, tableOf } from '../../../db';
import type { NextBatch, Purger } from '../../retention/types';
import { FINAL_STATUSES } from './types';

const FINAL = [...FINAL_STATUSES];

/**
 * The retention purge of deliveries in a final state (succeeded, failed, cancelled) and their
 * attempts, once both their creation and their last change are older than
 * `RETENTION_DELIVERIES_DAYS`. A pending or retrying delivery is never touched, however old: it is
 * work still to do. Each batch deletes deliveries and their attempts together, at most 5,000 rows
 * in all (a delivery counts one row plus one per attempt), in one transaction; the delete checks
 * the state again, so a failed delivery recovered meanwhile stays.
 */
export function deliveriesPurger(strapi: Core.Strapi): Purger {
  return {
    name: 'webhook deliveries',
    kinds: ['webhook_deliveries', 'webhook_attempts'],
    async open({ now, settings, batchRows }): Promise<NextBatch | null> {
      const deliveries = tableOf(strapi, UIDS.webhookDelivery);
      const attempts = tableOf(strapi, UIDS.webhookAttempt);
      const client = dialectOf(strapi);
      return keysetPurge(strapi.db.connection, {
        table: deliveries,
        cutoff: cutoffOf(settings.deliveriesDays, now),
        async batch(trx, { after, upTo, cutoff }) {
          const candidates = (await lockedForPurge(
            trx(deliveries)
              .select('id', 'uuid', 'attempts')
              .where('id', '>', after)
              .andWhere('id', '<=', upTo)
              .whereIn('status', FINAL)
              .andWhere('created_at', '<', cutoff)
              .andWhere((settled) => void settled.whereNull('updated_at').orWhere('updated_at', '<', cutoff))
              .orderBy('id', 'asc')
              .limit(batchRows),
            client
          )) as Array<{ id: number | string; uuid: string; attempts: number | null }>;
          if (candidates.length === 0) return null;
          // As many whole deliveries as fit in the batch with their attempts (always at least one).
          const taken: typeof candidates = [];
          let rows = 0;
          for (const candidate of candidates) {
            const weight = 1 + Math.max(0, Number(candidate.attempts ?? 0));
            if (taken.length > 0 && rows + weight > batchRows) break;
            taken.push(candidate);
            rows += weight;
          }
          const deleted = Number(
            await trx(deliveries)
              .whereIn(
                'id',
                taken.map((row) => row.id)
              )
              .whereIn('status', FINAL)
              .andWhere((settled) => void settled.whereNull('updated_at').orWhere('updated_at', '<', cutoff))
              .del()
          );
          // The attempts of those deleted: a delivery that changed meanwhile (and so stayed) keeps its own.
          const attemptRows = await deleteInChunks(
            trx,
            attempts,
            'delivery_uuid',
            taken.map((row) => row.uuid),
            (query) =>
              void query.whereNotExists(
                trx(deliveries)
                  .select(trx.raw('1'))
                  .where('uuid', trx.ref(`${attempts}.delivery_uuid`))
              )
          );
          return { last: Number(taken[taken.length - 1].id), purged: { webhook_deliveries: deleted, webhook_attempts: attemptRows } };
        },
      });
    },
  };
}
