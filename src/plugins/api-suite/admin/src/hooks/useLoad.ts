import type { DependencyList } from 'react';
import { useLoad as useSharedLoad, type Loaded } from '../../../shared/hooks';
import { useT } from '../utils/useT';

export type { Loaded } from '../../../shared/hooks';
export { useReloadWhen } from '../../../shared/hooks';

/** The shared `useLoad`, with the admin's own words for a failure that brought none. */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList, options: { refreshMs?: number | null } = {}): Loaded<T> {
  const t = useT();
  return useSharedLoad(load, deps, { ...options, fallback: t('error.generic') });
}
