import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, lockKey, tableOf } from '../../../db';
import { getConfig } from '../../../utils';
import type { RunStatus } from './rows';

/** The class of the per-consumer locks (db/locks.ts), so they meet no other lock of the database. */
const TURN_LOCK_CLASS = 0x534352; // "SCR"

/**
 * pending → running, unless the run's consumer already has `runsPerConsumer` runs running on
 * any instance ('wait'); 'gone' when the run is no longer pending. Counting and claiming are one
 * step, under the consumer's lock (db/locks.ts: instances share the database).
 */
export async function claimRun(strapi: Core.Strapi, runId: number): Promise<'claimed' | 'wait' | 'gone'> {
  const runsTable = tableOf(strapi, UIDS.scraperRun);
  const scrapersTable = tableOf(strapi, UIDS.scraper);
  const knex = () => strapi.db.connection;
  const run = (await knex()(runsTable)
    .join(scrapersTable, `${scrapersTable}.id`, `${runsTable}.scraper_id`)
    .select(`${runsTable}.status as status`, `${scrapersTable}.consumer_id as consumer_id`)
    .where(`${runsTable}.id`, runId)
    .first()) as { status: RunStatus; consumer_id: string } | undefined;
  if (!run || run.status !== 'pending') return 'gone';
  const cap = getConfig(strapi).scrapers.runsPerConsumer;
  return knex().transaction(async (trx) => {
    await lockKey(trx, dialectOf(strapi), TURN_LOCK_CLASS, run.consumer_id);
    const [row] = (await trx(runsTable)
      .join(scrapersTable, `${scrapersTable}.id`, `${runsTable}.scraper_id`)
      .where(`${runsTable}.status`, 'running')
      .where(`${scrapersTable}.consumer_id`, run.consumer_id)
      .count({ count: '*' })) as Array<{ count: number | string }>;
    if (Number(row?.count ?? 0) >= cap) return 'wait';
    const startedAt = new Date();
    const claimed = await trx(runsTable)
      .where({ id: runId, status: 'pending' })
      .update({ status: 'running', started_at: startedAt, heartbeat_at: startedAt, updated_at: startedAt });
    return claimed === 1 ? 'claimed' : 'gone';
  });
}
