import { useApiSuiteClient } from '../../../api';
import { useLoad } from '../../../hooks/useLoad';

/** The proxy pools the site configured (SCRAPER_PROXY_POOLS), for the form's select. */
export function useProxyPools(): string[] {
  const client = useApiSuiteClient();
  const options = useLoad(() => client.scrapers.options(), [client]);
  return options.data?.proxy_pools ?? [];
}
