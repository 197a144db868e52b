import { useEffect, useState } from 'react';
import { useApiSuiteClient, type Overview } from '../../../api';

export type OverviewState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; overview: Overview };

export function useOverview(): OverviewState {
  const { getOverview } = useApiSuiteClient();
  const [state, setState] = useState<OverviewState>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    getOverview().then(
      (overview) => !cancelled && setState({ status: 'ready', overview }),
      () => !cancelled && setState({ status: 'error' })
    );
    return () => {
      cancelled = true;
    };
  }, [getOverview]);
  return state;
}
