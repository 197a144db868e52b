import { Typography } from '@strapi/design-system';
import type { ComponentProps } from 'react';

/**
 * Text in a table cell that cannot widen the table: the design system's tables never wrap, so a
 * long URL, e-mail or description would push the last columns (and their buttons) out of sight.
 * `wrap` lets prose run onto more lines; otherwise the text ends in an ellipsis and the whole of
 * it is the cell's title (shown on hover).
 */
export function CellText({
  children,
  maxWidth = '16rem',
  wrap = false,
  ...props
}: { children: string; maxWidth?: string; wrap?: boolean } & Omit<ComponentProps<typeof Typography>, 'children'>) {
  if (wrap) {
    return (
      <Typography {...props} style={{ display: 'block', maxWidth, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    );
  }
  return (
    <Typography {...props} ellipsis title={children} style={{ display: 'block', maxWidth }}>
      {children}
    </Typography>
  );
}
