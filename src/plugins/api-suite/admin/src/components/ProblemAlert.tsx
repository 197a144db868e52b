import { Alert, Box } from '@strapi/design-system';
import type { ApiProblem } from '../../../shared/http';
import { useT } from '../utils/useT';

/** A server error shown where it happened, with the server's message. */
export function ProblemAlert({ problem, onRetry }: { problem: ApiProblem; onRetry?: () => void }) {
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
