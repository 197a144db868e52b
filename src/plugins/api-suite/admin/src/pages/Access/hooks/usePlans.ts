import { useApiSuiteClient } from '../../../api';
import { useLoad } from '../../../hooks/useLoad';

export function usePlans() {
  const client = useApiSuiteClient();
  return useLoad(() => client.access.plans(), [client]);
}
