import { Flex, Typography } from '@strapi/design-system';
import type { ReactNode } from 'react';

/**
 * The strip above a non-empty list: what the list holds on the left, its primary action on the
 * right. An empty list shows neither (its empty state says what to do and carries the action).
 */
export function ListToolbar({ summary, action }: { summary: ReactNode; action?: ReactNode }) {
  return (
    // Wraps on a narrow screen: the action goes under the summary rather than squeezed beside it.
    <Flex justifyContent="space-between" alignItems="center" gap={4} paddingBottom={4} wrap="wrap">
      <Typography variant="omega" textColor="neutral600">
        {summary}
      </Typography>
      {action}
    </Flex>
  );
}
