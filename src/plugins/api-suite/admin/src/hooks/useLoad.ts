import { useCallback, useEffect, useRef, useState } from 'react';
import { toProblem, type ServerProblem } from '../utils/errors';
import { useT } from '../utils/useT';

export type Loaded<T> =
  | { status: 'loading'; data?: T; problem?: undefined }
  | { status: 'error'; data?: T; problem: ServerProblem }
  | { status: 'ready'; data: T; problem?: undefined };

export interface LoadOptions {
  /** Load again every this many milliseconds while the page is open (live progress). */
  refreshMs?: number | null;
}

/**
 * Load something from the server when the page opens or `load` changes, keep what was shown
 * while reloading (no flicker on refresh), and keep the server's error to show it.
 */
export function useLoad<T>(load: () => Promise<T>, options: LoadOptions = {}): Loaded<T> & { reload: () => Promise<void> } {
  const t = useT();
  const fallback = useRef(t('error.generic'));
  fallback.current = t('error.generic');
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const current = useRef(load);
  current.current = load;
  const alive = useRef(true);

  const reload = useCallback(async () => {
    const requested = current.current;
    try {
      const data = await requested();
      if (alive.current && current.current === requested) setState({ status: 'ready', data });
    } catch (error) {
      if (alive.current && current.current === requested)
        setState((previous) => ({ status: 'error', data: previous.data, problem: toProblem(error, fallback.current) }));
    }
  }, []);

  useEffect(() => {
    alive.current = true;
    setState((previous) => ({ status: 'loading', data: previous.data }));
    void reload();
    return () => {
      alive.current = false;
    };
  }, [load, reload]);

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
