import { useEventStream, type LiveValue } from '../../../../shared/use-event-stream';
import { api, type UsageReport } from '../../api';
import { send } from '../../http';

/**
 * The usage stream (Server-Sent Events) read over fetch: EventSource cannot send the
 * Authorization header the JWT travels in, and a token in the URL would end up in logs.
 * Reconnects after a dropped connection; a refusal is shown and, for a 401, signs out.
 */
export function useUsageStream(): LiveValue<UsageReport> {
  return useEventStream<UsageReport>(
    {
      event: 'usage',
      open: (signal) => send('GET', api.usageStreamPath(), { accept: 'text/event-stream', signal }),
      refused: (problem) => (problem.status === 401 || problem.status === 403 ? 'stop' : 'retry'),
    },
    []
  );
}
