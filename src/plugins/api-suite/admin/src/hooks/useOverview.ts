import { useEffect, useState } from 'react';
import { asProblem, type ApiProblem } from '../../../shared/http';
import { useApiSuiteClient, type Overview } from '../api';
import { useT } from '../utils/useT';

export type OverviewState = { status: 'loading' } | { status: 'error'; problem: ApiProblem } | { status: 'ready'; overview: Overview };

export function useOverview(): OverviewState {
  const { getOverview } = useApiSuiteClient();
  const t = useT();
  const [state, setState] = useState<OverviewState>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    getOverview().then(
      (overview) => !cancelled && setState({ status: 'ready', overview }),
      (error: unknown) => !cancelled && setState({ status: 'error', problem: asProblem(error, t('overview.error')) })
    );
    return () => {
      cancelled = true;
    };
  }, [getOverview, t]);
  return state;
}
