import { useNotification } from '@strapi/strapi/admin';
import { useCallback } from 'react';
import { useRunner } from '../../../shared/hooks';
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
  const { run: runNamed, busy, problem, clear } = useRunner(t('error.generic'));

  const run = useCallback(
    <T>(name: string, action: () => Promise<T>, options: ActionOptions = {}): Promise<T | undefined> =>
      runNamed(name, action, {
        onDone: () => {
          if (options.success) toggleNotification({ type: 'success', message: t(options.success) });
        },
        onProblem: (found) => {
          if (!options.quiet) toggleNotification({ type: 'danger', title: t('error.title'), message: found.message });
        },
      }),
    [runNamed, t, toggleNotification]
  );

  return { run, busy, problem, clearProblem: clear };
}
