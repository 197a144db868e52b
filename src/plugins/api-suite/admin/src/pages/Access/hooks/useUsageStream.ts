import { useAuth } from '@strapi/strapi/admin';
import { useEffect, useRef, useState } from 'react';
import { useApiSuiteClient, type Usage } from '../../../api';
import { toProblem, type ServerProblem } from '../../../utils/errors';
import { backendUrl, readEventStream, StreamRefused } from '../../../utils/eventStream';
import { useT } from '../../../utils/useT';

const RECONNECT_MS = 5_000;

export interface UsageStream {
  usage: Usage | null;
  /** When the last event arrived. */
  updatedAt: Date | null;
  connected: boolean;
  problem: ServerProblem | null;
}

/**
 * The last hour of usage, live: the admin usage stream read over fetch with the session's
 * token, reconnecting after a dropped connection. An expired token is renewed by one call
 * through the admin's fetch client (which refreshes it) before reconnecting.
 */
export function useUsageStream(keyId: number | undefined): UsageStream {
  const client = useApiSuiteClient();
  const t = useT();
  const interrupted = useRef(t('access.usage.interrupted'));
  interrupted.current = t('access.usage.interrupted');
  const token = useAuth('ApiSuiteUsage', (state) => state.token);
  const tokenRef = useRef(token);
  tokenRef.current = token;
  const [state, setState] = useState<UsageStream>({ usage: null, updatedAt: null, connected: false, problem: null });

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ usage: null, updatedAt: null, connected: false, problem: null });

    const connect = async () => {
      try {
        await readEventStream(`${backendUrl()}${client.access.usageStreamPath(keyId)}`, tokenRef.current, controller.signal, (event) => {
          if (event.event !== 'usage') return;
          const usage = JSON.parse(event.data) as Usage;
          setState({ usage, updatedAt: new Date(), connected: true, problem: null });
        });
        setState((previous) => ({ ...previous, connected: false }));
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof StreamRefused) {
          if (error.status === 401) {
            // Renews the session's token through the admin's own refresh, or fails and says why.
            await client.access.usage(keyId).catch(() => undefined);
          } else {
            const body = error.body as { error?: { message?: string; status?: number; name?: string } } | null;
            setState((previous) => ({
              ...previous,
              connected: false,
              problem: {
                message: body?.error?.message ?? error.message,
                status: error.status,
                code: body?.error?.name ?? null,
                fields: {},
              },
            }));
            if (error.status === 403 || error.status === 404) return;
          }
        } else {
          setState((previous) => ({ ...previous, connected: false, problem: toProblem(error, interrupted.current) }));
        }
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void connect(), RECONNECT_MS);
    };
    void connect();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [client, keyId]);

  return state;
}
