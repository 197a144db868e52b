import { Alert, Box } from '@strapi/design-system';
import type { ServerProblem } from '../utils/errors';
import { useT } from '../utils/useT';

/** A server error shown where it happened, with the server's message. */
export function ProblemAlert({ problem, onRetry }: { problem: ServerProblem; onRetry?: () => void }) {
  const t = useT();
  return (
    <Box paddingBottom={4}>
      <Alert variant="danger" title={t('error.title')} closeLabel={t('action.close')} onClose={onRetry} role="alert">
        {problem.message}
        {problem.status ? ` (HTTP ${problem.status})` : ''}
      </Alert>
    </Box>
  );
}
