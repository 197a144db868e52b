import type { Core } from '@strapi/strapi';
import { fromJson, toBool } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { crawl, type CrawlSummary } from '../crawler';
import type { ScraperRow } from '../services/scrapers';
import type { ScraperSelectors } from '../validation';

/** What a run does with each batch of items and each page as the crawl goes. */
export interface CrawlCallbacks {
  onItems: (items: Array<{ url: string; data: Record<string, unknown> }>) => Promise<void>;
  onPage: (page: { ok: boolean }) => void;
}

/** Crawl with the scraper's settings through the plugin's guarded outbound client. */
export async function crawlScraper(
  strapi: Core.Strapi,
  scraper: ScraperRow,
  signal: AbortSignal,
  callbacks: CrawlCallbacks
): Promise<CrawlSummary> {
  const outbound = getService(strapi, 'platform').outbound();
  const { proxyPools: pools, pageConcurrency } = getConfig(strapi).scrapers;
  const proxies = scraper.proxy_pool ? (pools[scraper.proxy_pool] ?? []) : [];
  if (scraper.proxy_pool && proxies.length === 0) throw new Error(`proxy pool "${scraper.proxy_pool}" is no longer configured`);
  return crawl({
    startUrl: scraper.url,
    maxPages: scraper.max_pages ?? 100,
    followLinks: toBool(scraper.follow_links),
    rateLimit: scraper.rate_limit ?? 5,
    concurrency: pageConcurrency,
    headers: fromJson<Record<string, string>>(scraper.headers, {}),
    proxies,
    respectRobotsTxt: scraper.respect_robots_txt === null ? true : toBool(scraper.respect_robots_txt),
    selectors: fromJson<ScraperSelectors | null>(scraper.selectors, null) ?? undefined,
    signal,
    request: (url, init) =>
      outbound.request(url, {
        method: 'GET',
        headers: init.headers,
        signal: init.signal,
        timeoutMs: init.timeoutMs,
        proxy: init.proxy,
        maxResponseBytes: 5 * 1024 * 1024,
      }),
    onItems: callbacks.onItems,
    onPage: callbacks.onPage,
  });
}
