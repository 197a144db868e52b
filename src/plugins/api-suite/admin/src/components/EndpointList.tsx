import { Badge, Flex, Typography } from '@strapi/design-system';
import type { Overview } from '../api';
import { useT } from '../utils/useT';

type Groups = Overview['access']['endpointGroups'];

/**
 * A plan's endpoint entries as stored, each with what it reaches: a group ("@public") with the
 * patterns it stands for, "* *" as every route, and a pattern as itself.
 */
export function EndpointList({ entries, groups }: { entries: string[]; groups?: Groups }) {
  const t = useT();
  return (
    // At most ~30rem wide: a group's patterns wrap rather than push the table sideways.
    <Flex direction="column" alignItems="flex-start" gap={1} style={{ maxWidth: '30rem', whiteSpace: 'normal' }}>
      {entries.map((entry) => {
        const group =
          entry === '@public'
            ? groups?.public
            : entry === '@private'
              ? groups?.private
              : entry === '@content'
                ? groups?.content
                : undefined;
        return (
          <Flex key={entry} gap={2} alignItems="baseline" wrap="wrap">
            {entry.startsWith('@') ? <Badge>{entry}</Badge> : <Code>{entry}</Code>}
            {entry === '* *' && (
              <Typography variant="pi" textColor="neutral600">
                {t('access.endpoints.everything')}
              </Typography>
            )}
            {group && (
              <Typography variant="pi" textColor="neutral600" style={{ fontFamily: 'monospace' }}>
                {group.join(', ')}
              </Typography>
            )}
          </Flex>
        );
      })}
    </Flex>
  );
}

function Code({ children }: { children: string }) {
  return (
    <Typography variant="pi" style={{ fontFamily: 'monospace' }}>
      {children}
    </Typography>
  );
}
