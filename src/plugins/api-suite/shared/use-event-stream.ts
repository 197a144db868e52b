import { useEffect, useRef, useState, type DependencyList } from 'react';
import { readEvents } from './event-stream';
import { ApiProblem, problemOfResponse } from './http';

const RECONNECT_MS = 5_000;

/** What the stream said last, and whether it is connected. */
export interface LiveValue<T> {
  value: T | null;
  /** When the last event arrived. */
  updatedAt: Date | null;
  live: boolean;
  problem: ApiProblem | null;
}

/** After a refusal: reconnect without showing it (a credential was renewed), show it and stop, or show it and reconnect. */
export type AfterRefusal = 'quiet' | 'stop' | 'retry';

export interface EventStreamOptions {
  /** The event whose data (JSON) is the value; others are ignored. */
  event: string;
  /** Open the stream: a fetch of its path with the app's credentials, aborted through `signal`. */
  open: (signal: AbortSignal) => Promise<Response>;
  /** What a refusal (an answer other than a stream) leads to; by default it is shown and the stream reconnects. */
  refused?: (problem: ApiProblem) => AfterRefusal | Promise<AfterRefusal>;
  /** The problem shown for a connection that failed or dropped without a refusal (by default an ApiProblem's, else none). */
  interrupted?: (error: unknown) => ApiProblem | null;
}

/**
 * A live value read from a Server-Sent Events stream over fetch (EventSource cannot send the
 * Authorization header), reconnecting after a dropped connection; started again when `deps` change.
 */
export function useEventStream<T>(options: EventStreamOptions, deps: DependencyList): LiveValue<T> {
  const [state, setState] = useState<LiveValue<T>>({ value: null, updatedAt: null, live: false, problem: null });
  const current = useRef(options);
  current.current = options;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ value: null, updatedAt: null, live: false, problem: null });

    const connect = async () => {
      const {
        event: wanted,
        open,
        refused = () => 'retry',
        interrupted = (error) => (error instanceof ApiProblem ? error : null),
      } = current.current;
      try {
        const response = await open(controller.signal);
        if (!response.ok || !response.body) {
          const problem = await problemOfResponse(response);
          const after = await refused(problem);
          if (controller.signal.aborted) return;
          if (after !== 'quiet') setState((previous) => ({ ...previous, live: false, problem }));
          if (after === 'stop') return;
        } else {
          await readEvents(response.body.getReader(), ({ event, data }) => {
            if (event === wanted && !controller.signal.aborted)
              setState({ value: JSON.parse(data) as T, updatedAt: new Date(), live: true, problem: null });
          });
          setState((previous) => ({ ...previous, live: false }));
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        setState((previous) => ({ ...previous, live: false, problem: interrupted(error) }));
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void connect(), RECONNECT_MS);
    };
    void connect();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
    // The caller's deps are the stream's: the options are read from a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  return state;
}
