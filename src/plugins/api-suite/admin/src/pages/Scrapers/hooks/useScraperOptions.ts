import { useApiSuiteClient, type TargetType } from '../../../api';
import { useLoad } from '../../../hooks/useLoad';

export interface ScraperFormOptions {
  /** The proxy pools the site configured (SCRAPER_PROXY_POOLS). */
  proxyPools: string[];
  /** The content types a scraper may write into, with the attributes an item can fill. */
  targetTypes: TargetType[];
}

/** What the scraper form offers, as the server says. */
export function useScraperOptions(): ScraperFormOptions {
  const client = useApiSuiteClient();
  const options = useLoad(() => client.scrapers.options(), [client]);
  return { proxyPools: options.data?.proxy_pools ?? [], targetTypes: options.data?.target_types ?? [] };
}
