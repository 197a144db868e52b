import { useEffect, useState } from 'react';
import { useApiSuiteClient, type Overview } from '../api';
import { toProblem, type ServerProblem } from '../utils/errors';
import { useT } from '../utils/useT';

export type OverviewState = { status: 'loading' } | { status: 'error'; problem: ServerProblem } | { status: 'ready'; overview: Overview };

export function useOverview(): OverviewState {
  const { getOverview } = useApiSuiteClient();
  const t = useT();
  const [state, setState] = useState<OverviewState>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    getOverview().then(
      (overview) => !cancelled && setState({ status: 'ready', overview }),
      (error: unknown) => !cancelled && setState({ status: 'error', problem: toProblem(error, t('overview.error')) })
    );
    return () => {
      cancelled = true;
    };
  }, [getOverview, t]);
  return state;
}
