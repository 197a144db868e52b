import { useNotification } from '@strapi/strapi/admin';
import { useCallback, useState } from 'react';
import { toProblem, type ServerProblem } from '../utils/errors';
import { useT } from '../utils/useT';

export interface ActionOptions {
  /** Translation key of the message shown when it worked. */
  success?: string;
  /** Do not show the failure as a notification (the caller shows it in a form). */
  quiet?: boolean;
}

/**
 * Run something the editor asked for: `busy` names what is running (buttons show progress), and
 * a failure shows the server's own message rather than disappearing.
 */
export function useAction() {
  const { toggleNotification } = useNotification();
  const t = useT();
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<ServerProblem | null>(null);

  const run = useCallback(
    async <T>(name: string, action: () => Promise<T>, options: ActionOptions = {}): Promise<T | undefined> => {
      setBusy(name);
      setProblem(null);
      try {
        const result = await action();
        if (options.success) toggleNotification({ type: 'success', message: t(options.success) });
        return result;
      } catch (error) {
        const found = toProblem(error, t('error.generic'));
        setProblem(found);
        if (!options.quiet) toggleNotification({ type: 'danger', title: t('error.title'), message: found.message });
        return undefined;
      } finally {
        setBusy(null);
      }
    },
    [t, toggleNotification]
  );

  return { run, busy, problem, clearProblem: () => setProblem(null) };
}
