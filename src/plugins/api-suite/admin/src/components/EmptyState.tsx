import { EmptyStateLayout } from '@strapi/design-system';
import { Information } from '@strapi/icons';
import type { ReactNode } from 'react';

/** An empty list that says what to do next. */
export function EmptyState({ content, action }: { content: string; action?: ReactNode }) {
  return (
    <EmptyStateLayout
      icon={<Information width="6.4rem" height="6.4rem" />}
      content={content}
      action={action}
      hasRadius
      shadow="tableShadow"
    />
  );
}
