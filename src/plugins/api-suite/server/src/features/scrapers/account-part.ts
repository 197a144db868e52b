import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import { tableOf } from '../../db';
import { getService } from '../../utils';
import { everyPage, type AccountPart } from '../accounts/types';

/** Scrapers read a page at a time for the export. */
const PAGE = 100;

/**
 * A consumer's scrapers (docs/accounts.md): exported as `GET /api/v1/scrapers` shows them; on
 * closing, each is unscheduled, its running run stopped on whichever instance runs it, and
 * deleted with its runs and results, through the scrapers' own delete.
 */
export function scrapersAccountPart(strapi: Core.Strapi): AccountPart {
  return {
    name: 'scrapers',
    phase: 'work',
    async export({ consumerId }) {
      if (!consumerId) return { scrapers: [] };
      const service = getService(strapi, 'scrapers');
      const scrapers = await everyPage(async (page) => {
        const { rows, total } = await service.list(consumerId, page, PAGE);
        return { items: rows.map((row) => service.present(row)), total };
      });
      return { scrapers };
    },
    async prepareClosing({ consumerId }) {
      if (!consumerId) return null;
      return {
        async carryOut() {
          const service = getService(strapi, 'scrapers');
          const ids = (await strapi.db.connection(tableOf(strapi, UIDS.scraper)).where({ consumer_id: consumerId }).select('id')) as Array<{
            id: number;
          }>;
          for (const { id } of ids) {
            const row = await service.get(id);
            if (row) await service.remove(row);
          }
        },
        confirmation: () => 'Its scrapers have been deleted.',
      };
    },
  };
}
