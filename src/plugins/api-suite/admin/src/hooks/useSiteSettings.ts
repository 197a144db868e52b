import type { Overview } from '../api';
import { useOverview } from './useOverview';

/**
 * The site's settings every page may need (the shop currency, what the endpoint groups stand
 * for), from the overview route. Undefined until loaded: callers show what they can meanwhile.
 */
export function useSiteSettings(): Overview | undefined {
  const state = useOverview();
  return state.status === 'ready' ? state.overview : undefined;
}
