import { Box, Typography } from '@strapi/design-system';

/** JSON (or text) in a monospaced, scrollable block. */
export function JsonBlock({ value, maxHeight = '24rem' }: { value: unknown; maxHeight?: string }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <Box background="neutral100" padding={3} hasRadius style={{ maxHeight, overflow: 'auto' }}>
      <Typography tag="pre" variant="pi" style={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>
        {text}
      </Typography>
    </Box>
  );
}
