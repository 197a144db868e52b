import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { tableOf, toCount, toIsoRequired, toText } from '../../../db';
import type { TargetWrite, WrittenBy } from '../validation/responses';

interface WriteRow {
  scraper_id: number;
  run_id: number;
  content_type: string;
  document_id: string;
  item_key: string | null;
  action: TargetWrite['action'];
  written_at: unknown;
}

/**
 * What runs wrote into their scrapers' targets, as editors read it (docs/scrapers.md#what-editors-see):
 * a run's documents, and the scraper and run that last wrote one document.
 */
export function targetWrites(strapi: Core.Strapi) {
  const knex = () => strapi.db.connection;
  const writes = () => knex()(tableOf(strapi, UIDS.scraperTargetWrite));

  return {
    /** A page of what one run wrote, in the order it wrote it. */
    async ofRun(runId: number, page: number, limit: number): Promise<{ rows: TargetWrite[]; total: number }> {
      const [rows, counted] = await Promise.all([
        writes()
          .where({ run_id: runId })
          .orderBy('id', 'asc')
          .offset((page - 1) * limit)
          .limit(limit)
          .select('content_type', 'document_id', 'item_key', 'action', 'written_at') as Promise<WriteRow[]>,
        writes().where({ run_id: runId }).count({ total: '*' }).first() as Promise<{ total: unknown } | undefined>,
      ]);
      return {
        rows: rows.map((row) => ({
          content_type: row.content_type,
          document_id: row.document_id,
          item_key: toText(row.item_key),
          action: row.action,
          written_at: toIsoRequired(row.written_at, 'written_at'),
        })),
        total: toCount(counted?.total),
      };
    },

    /** The scraper and run that last wrote a document of `contentType`; null when none has (or its scraper is gone). */
    async lastOf(contentType: string, documentId: string): Promise<WrittenBy> {
      const row = (await writes()
        .where({ content_type: contentType, document_id: documentId })
        .orderBy('id', 'desc')
        .first('scraper_id', 'run_id', 'action', 'written_at')) as WriteRow | undefined;
      if (!row) return null;
      const scraper = (await knex()(tableOf(strapi, UIDS.scraper)).where({ id: row.scraper_id }).first('id', 'name')) as
        { id: number; name: string } | undefined;
      if (!scraper) return null;
      return { scraper, run_id: row.run_id, action: row.action, written_at: toIsoRequired(row.written_at, 'written_at') };
    },
  };
}
