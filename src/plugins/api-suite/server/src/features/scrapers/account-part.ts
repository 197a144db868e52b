import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import { tableOf } from '../../db';
import { getService } from '../../utils';
import type { AccountPart } from '../accounts/types';
import type { Scraper } from './validation/responses';

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
      const service = getService(strapi, 'scrapers');
      const scrapers: Scraper[] = [];
      for (let page = 1; consumerId; page += 1) {
        const { rows, total } = await service.list(consumerId, page, PAGE);
        scrapers.push(...rows.map((row) => service.present(row)));
        if (rows.length === 0 || scrapers.length >= total) break;
      }
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
