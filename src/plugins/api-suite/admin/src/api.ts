import { useFetchClient } from '@strapi/strapi/admin';
import { useCallback } from 'react';
import { PLUGIN_ID } from './pluginId';

/** The one typed client for the plugin's admin routes. */
export interface Overview {
  jobs: { driver: 'bullmq' | 'in-process' };
  outbound: { allowPrivate: boolean };
  database: { client: string };
  access: { routePrefixes: string[]; sharedKey: boolean };
}

export function useApiSuiteClient() {
  const { get } = useFetchClient();
  const getOverview = useCallback(async (): Promise<Overview> => {
    const response = await get(`/${PLUGIN_ID}/overview`);
    return (response.data as { data: Overview }).data;
  }, [get]);
  return { getOverview };
}
