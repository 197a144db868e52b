import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { ApiProblem, asProblem } from './http';

/**
 * The load and action hooks of both browsers (React only: no design system, no app's client).
 * What a failure looks like is an ApiProblem: each app's client throws one, and anything else
 * thrown is read by its message.
 */

const SOMETHING_WRONG = 'Something went wrong.';

export type LoadState<T> =
  /** A first load, or one for new `deps`: what was shown stays (no flicker), and so does the last problem until an answer. */
  | { status: 'loading'; data?: T; problem?: ApiProblem }
  | { status: 'error'; data?: T; problem: ApiProblem }
  | { status: 'ready'; data: T; problem?: undefined };

export type Loaded<T> = LoadState<T> & {
  /** True while any load is under way, reloads and refreshes included (`status` turns `loading` only for new `deps`). */
  loading: boolean;
  /** Load again; resolves once this load has answered or a newer one has taken its place. */
  reload: () => Promise<void>;
};

export interface LoadOptions {
  /** Load again every this many milliseconds while the page is open (live progress). */
  refreshMs?: number | null;
  /** The message of a failure that brought none. */
  fallback?: string;
}

/**
 * Load when the component mounts and whenever `deps` change, and again on `reload()`; answers of
 * an older load are dropped, and the server's problem is kept to show it.
 */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList, options: LoadOptions = {}): Loaded<T> {
  const [state, setState] = useState<LoadState<T> & { loading: boolean }>({ status: 'loading', loading: true });
  const loader = useRef(load);
  loader.current = load;
  const fallback = useRef(options.fallback);
  fallback.current = options.fallback;
  const latest = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setState((previous) => (previous.loading ? previous : { ...previous, loading: true }));
    try {
      const data = await loader.current();
      if (mounted.current && mine === latest.current) setState({ status: 'ready', data, loading: false });
    } catch (error) {
      if (mounted.current && mine === latest.current) {
        const problem = asProblem(error, fallback.current ?? SOMETHING_WRONG);
        setState((previous) => ({ status: 'error', data: previous.data, problem, loading: false }));
      }
    }
  }, []);

  useEffect(() => {
    setState((previous) => ({ status: 'loading', data: previous.data, problem: previous.problem, loading: true }));
    void reload();
    // The caller's deps are the load's: `load` itself is read from a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reload, ...deps]);

  const { refreshMs } = options;
  useEffect(() => {
    if (!refreshMs) return undefined;
    const timer = setInterval(() => void reload(), refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, reload]);

  return { ...state, reload };
}

/** Load again whenever `key` changes, but not on mount, where `useLoad` has just loaded. */
export function useReloadWhen(key: unknown, reload: () => Promise<void>): void {
  const mounted = useRef(false);
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    void reload();
  }, [key, reload]);
}

export interface RunCallbacks<T> {
  onDone?: (value: T) => void;
  onProblem?: (problem: ApiProblem) => void;
}

export interface Runner {
  /** Run `action` as `name` (what `busy` says while it runs); its value, or undefined when it failed. */
  run: <T>(name: string, action: () => Promise<T>, callbacks?: RunCallbacks<T>) => Promise<T | undefined>;
  /** The name of what is running, or null. */
  busy: string | null;
  /** The last run's problem, kept for a form to show. */
  problem: ApiProblem | null;
  clear: () => void;
}

/** Runs what the user asked for, one thing at a time as far as `busy` tells, keeping the server's problem rather than losing it. */
export function useRunner(fallback: string = SOMETHING_WRONG): Runner {
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;

  const run = useCallback(async <T>(name: string, action: () => Promise<T>, callbacks: RunCallbacks<T> = {}): Promise<T | undefined> => {
    setBusy(name);
    setProblem(null);
    try {
      const value = await action();
      callbacks.onDone?.(value);
      return value;
    } catch (error) {
      const found = asProblem(error, fallbackRef.current);
      setProblem(found);
      callbacks.onProblem?.(found);
      return undefined;
    } finally {
      setBusy(null);
    }
  }, []);
  const clear = useCallback(() => setProblem(null), []);
  return { run, busy, problem, clear };
}

export interface Action<A extends unknown[], T> {
  run: (...args: A) => Promise<T | undefined>;
  busy: boolean;
  problem: ApiProblem | null;
  clear: () => void;
}

/** One button's or form's call: busy while it runs, its problem kept for the form to show. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>): Action<A, T> {
  const current = useRef(action);
  current.current = action;
  const { run: runNamed, busy, problem, clear } = useRunner();
  const run = useCallback((...args: A) => runNamed('action', () => current.current(...args)), [runNamed]);
  return { run, busy: busy !== null, problem, clear };
}
