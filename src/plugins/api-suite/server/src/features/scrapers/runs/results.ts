import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { fromJson, tableOf } from '../../../db';

/** One stored result of a run, its data parsed. */
export interface RunResult {
  id: number;
  url: string;
  data: Record<string, unknown>;
}

/**
 * Every result of a run in id order, read `batch` rows at a time by keyset (`id > last`), so a
 * run of any size is walked without holding it in memory or paying for an offset.
 */
export async function* runResults(strapi: Core.Strapi, runId: number, batch: number): AsyncGenerator<RunResult> {
  const table = tableOf(strapi, UIDS.scraperResult);
  let lastId = 0;
  for (;;) {
    const rows = (await strapi.db
      .connection(table)
      .select('id', 'url', 'data')
      .where({ run_id: runId })
      .where('id', '>', lastId)
      .orderBy('id', 'asc')
      .limit(batch)) as Array<{ id: number; url: string; data: unknown }>;
    for (const row of rows) yield { id: row.id, url: row.url, data: fromJson<Record<string, unknown>>(row.data, {}) };
    if (rows.length < batch) return;
    lastId = rows[rows.length - 1].id;
  }
}
