import { useEffect, useState } from 'react';
import { api, type UsageReport } from '../../api';
import { readEvents } from '../../../../shared/event-stream';
import { ApiProblem, problemOf, send } from '../../http';

const RECONNECT_MS = 5_000;

export interface UsageStream {
  usage: UsageReport | null;
  live: boolean;
  problem: ApiProblem | null;
}

/**
 * The usage stream (Server-Sent Events) read over fetch: EventSource cannot send the
 * Authorization header the JWT travels in, and a token in the URL would end up in logs.
 * Reconnects after a dropped connection; a refusal is shown and, for a 401, signs out.
 */
export function useUsageStream(): UsageStream {
  const [state, setState] = useState<UsageStream>({ usage: null, live: false, problem: null });

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

    const connect = async () => {
      try {
        const response = await send('GET', api.usageStreamPath());
        if (!response.ok || !response.body) {
          const problem = problemOf(response.status, await response.json().catch(() => null));
          setState((previous) => ({ ...previous, live: false, problem }));
          if (response.status === 401 || response.status === 403) return;
        } else {
          reader = response.body.getReader();
          await readEvents(reader, ({ event, data }) => {
            if (event === 'usage' && !stopped) setState({ usage: JSON.parse(data) as UsageReport, live: true, problem: null });
          });
          setState((previous) => ({ ...previous, live: false }));
        }
      } catch (error) {
        if (stopped) return;
        setState((previous) => ({ ...previous, live: false, problem: error instanceof ApiProblem ? error : null }));
      }
      if (!stopped) timer = setTimeout(() => void connect(), RECONNECT_MS);
    };
    void connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      void reader?.cancel().catch(() => undefined);
    };
  }, []);

  return state;
}
