import { useCallback } from 'react';
import { useApiSuiteClient } from '../../../api';
import { useLoad } from '../../../hooks/useLoad';

export function usePlans() {
  const client = useApiSuiteClient();
  return useLoad(useCallback(() => client.access.plans(), [client]));
}
