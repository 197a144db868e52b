import { useAuth } from '@strapi/strapi/admin';
import { useRef } from 'react';
import { asProblem, send } from '../../../../../shared/http';
import { useEventStream, type LiveValue } from '../../../../../shared/use-event-stream';
import { useApiSuiteClient, type Usage } from '../../../api';
import { useT } from '../../../utils/useT';

/**
 * The last hour of usage, live: the admin usage stream read over fetch with the session's token,
 * reconnecting after a dropped connection. An expired token is renewed by one call through the
 * admin's fetch client (which refreshes it) before reconnecting; a 403 or 404 stops it.
 */
export function useUsageStream(keyId: number | undefined): LiveValue<Usage> {
  const client = useApiSuiteClient();
  const t = useT();
  const token = useAuth('ApiSuiteUsage', (state) => state.token);
  const tokenRef = useRef(token);
  tokenRef.current = token;

  return useEventStream<Usage>(
    {
      event: 'usage',
      open: (signal) =>
        send('GET', `${backendUrl()}${client.access.usageStreamPath(keyId)}`, {
          token: tokenRef.current,
          accept: 'text/event-stream',
          signal,
        }),
      refused: async (problem) => {
        if (problem.status === 401) {
          // Renews the session's token through the admin's own refresh, or fails and says why.
          await client.access.usage(keyId).catch(() => undefined);
          return 'quiet';
        }
        return problem.status === 403 || problem.status === 404 ? 'stop' : 'retry';
      },
      interrupted: (error) => asProblem(error, t('access.usage.interrupted')),
    },
    [client, keyId]
  );
}

/** Where the admin's API lives (the same origin unless the site serves the admin elsewhere). */
function backendUrl(): string {
  return (window as unknown as { strapi?: { backendURL?: string } }).strapi?.backendURL ?? '';
}
