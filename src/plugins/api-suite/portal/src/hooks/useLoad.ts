import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiProblem } from '../http';

export interface Loaded<T> {
  data: T | null;
  problem: ApiProblem | null;
  loading: boolean;
  reload(): void;
}

/** Load once per change of `deps`, and again on `reload()`; answers of an older load are dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; problem: ApiProblem | null; loading: boolean }>({
    data: null,
    problem: null,
    loading: true,
  });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  const loader = useRef(load);
  loader.current = load;

  useEffect(() => {
    const mine = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    loader.current().then(
      (data) => mine === latest.current && setState({ data, problem: null, loading: false }),
      (error: unknown) =>
        mine === latest.current && setState((previous) => ({ data: previous.data, problem: asProblem(error), loading: false }))
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);

  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}

export interface Action<A extends unknown[], T> {
  run(...args: A): Promise<T | undefined>;
  busy: boolean;
  problem: ApiProblem | null;
  clear(): void;
}

/** A button's or form's call: busy while it runs, its problem kept for the form to show. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>): Action<A, T> {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const current = useRef(action);
  current.current = action;
  const run = useCallback(async (...args: A) => {
    setBusy(true);
    setProblem(null);
    try {
      return await current.current(...args);
    } catch (error) {
      setProblem(asProblem(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setProblem(null), []);
  return { run, busy, problem, clear };
}

export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  return new ApiProblem(0, null, error instanceof Error ? error.message : String(error));
}
