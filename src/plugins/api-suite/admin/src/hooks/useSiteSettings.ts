import { useCallback } from 'react';
import { useApiSuiteClient, type Overview } from '../api';
import { useLoad } from './useLoad';

/**
 * The site's settings every page may need (the shop currency, what the endpoint groups stand
 * for), from the overview route. Undefined until loaded: callers show what they can meanwhile.
 */
export function useSiteSettings(): Overview | undefined {
  const { getOverview } = useApiSuiteClient();
  const overview = useLoad(useCallback(() => getOverview(), [getOverview]));
  return overview.data;
}
