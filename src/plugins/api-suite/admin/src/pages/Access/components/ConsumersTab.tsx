import { Box, Button, Flex, Td, TextInput, Tr, Typography } from '@strapi/design-system';
import { useEffect, useState } from 'react';
import { useApiSuiteClient } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { TextCell } from '../../../components/DataTable';
import { useFormat, useT } from '../../../utils/useT';
import { AccessTable, useAccessList } from './AccessTable';

/**
 * Every consumer (search by username or e-mail) with the plan they are on now and why (billing
 * subscription, an administrator's grant, or the default plan), their grant and their active keys;
 * grant a plan here, whether or not the consumer has made a key yet.
 */
export function ConsumersTab() {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const access = useAccessList((page) => client.access.consumers(search, page), [client, search]);
  const { canManage, setPage } = access;
  // Search as the editor types, once they pause.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed, setPage]);

  return (
    <Box>
      <Flex gap={4} paddingBottom={4} alignItems="flex-end">
        <Box style={{ width: '28rem' }}>
          <TextInput
            name="consumer-search"
            aria-label={t('access.consumers.search')}
            placeholder={t('access.consumers.search')}
            value={typed}
            onChange={(event: React.ChangeEvent<HTMLInputElement>) => setTyped(event.currentTarget.value)}
          />
        </Box>
      </Flex>
      <AccessTable
        access={access}
        name="consumers"
        columns={['user', 'plan', 'granted', 'keys']}
        empty={<EmptyState content={t(search === '' ? 'access.consumers.empty' : 'access.consumers.noMatch')} />}
        row={(consumer) => (
          <Tr key={consumer.id} data-testid="consumer-row">
            <Td>
              <Flex direction="column" alignItems="flex-start" style={{ maxWidth: '28rem', whiteSpace: 'normal' }}>
                <Typography style={{ overflowWrap: 'anywhere' }}>{consumer.username}</Typography>
                <Typography variant="pi" textColor="neutral600" style={{ overflowWrap: 'anywhere' }}>
                  {consumer.email}
                </Typography>
              </Flex>
            </Td>
            <Td>
              <Flex direction="column" alignItems="flex-start">
                <Typography data-testid="consumer-plan">{consumer.plan.name}</Typography>
                <Typography variant="pi" textColor="neutral600" data-testid="consumer-plan-source">
                  {t(`access.planSource.${consumer.plan.source}`)}
                </Typography>
              </Flex>
            </Td>
            <TextCell>{consumer.granted?.name ?? '—'}</TextCell>
            <TextCell>{format.number(consumer.keys)}</TextCell>
            {canManage && (
              <Td>
                <Button size="S" variant="tertiary" onClick={() => access.grant(consumer, { ...consumer.plan, granted: consumer.granted })}>
                  {t('access.consumers.grant')}
                </Button>
              </Td>
            )}
          </Tr>
        )}
      />
    </Box>
  );
}
