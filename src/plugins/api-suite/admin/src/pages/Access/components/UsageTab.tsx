import { Badge, Box, Flex, Grid, Loader, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient } from '../../../api';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useLoad } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';
import { useUsageStream } from '../hooks/useUsageStream';
import { UsageChart } from './UsageChart';

const ALL = 'all';

/** Requests over the last hour, for every key or one, updated live from the usage stream. */
export function UsageTab() {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const [key, setKey] = useState<string>(ALL);
  const keys = useLoad(() => client.access.keys(1), [client]);
  const keyId = key === ALL ? undefined : Number(key);
  const stream = useUsageStream(keyId);

  return (
    <Flex direction="column" alignItems="stretch" gap={4}>
      <Flex justifyContent="space-between" alignItems="flex-end" gap={4} wrap="wrap">
        <Box style={{ minWidth: '28rem' }}>
          <SingleSelect aria-label={t('access.usage.key')} value={key} onChange={(value) => setKey(String(value))}>
            <SingleSelectOption value={ALL}>{t('access.usage.allKeys')}</SingleSelectOption>
            {(keys.data?.data ?? []).map((apiKey) => (
              <SingleSelectOption key={apiKey.id} value={String(apiKey.id)}>
                {`${apiKey.key_prefix}… ${apiKey.name ?? ''} (${apiKey.user?.username ?? '—'})`}
              </SingleSelectOption>
            ))}
          </SingleSelect>
        </Box>
        <Flex gap={2}>
          <Badge variant={stream.live ? 'success' : 'neutral'} data-testid="usage-live">
            {t(stream.live ? 'access.usage.live' : 'access.usage.connecting')}
          </Badge>
          {stream.updatedAt && (
            <Typography variant="pi" textColor="neutral600">
              {t('access.usage.updated', { at: format.dateTime(stream.updatedAt.toISOString()) })}
            </Typography>
          )}
        </Flex>
      </Flex>
      {stream.problem && <ProblemAlert problem={stream.problem} />}
      {!stream.value && !stream.problem && <Loader>{t('state.loading')}</Loader>}
      {stream.value && (
        <>
          <Grid.Root gap={4}>
            <Figure label={t('access.usage.total')} value={format.number(stream.value.total)} testId="usage-total" />
            <Figure
              label={t('access.usage.byStatus')}
              value={
                Object.entries(stream.value.by_status)
                  .map(([status, count]) => `${status}: ${format.number(count)}`)
                  .join(' · ') || '—'
              }
            />
            <Figure
              label={t('access.usage.month')}
              value={
                stream.value.month
                  ? stream.value.month.quota === -1
                    ? t('access.usage.monthUnlimited', { used: format.number(stream.value.month.used) })
                    : t('access.usage.monthOf', {
                        used: format.number(stream.value.month.used),
                        quota: format.number(stream.value.month.quota),
                      })
                  : undefined
              }
              note={stream.value.month ? undefined : t('access.usage.monthChooseKey')}
              detail={
                stream.value.plan
                  ? t(stream.value.plan.own_limits ? 'access.usage.poolOwnLimits' : 'access.usage.pool', { plan: stream.value.plan.name })
                  : undefined
              }
              testId="usage-month"
              detailTestId="usage-plan"
            />
          </Grid.Root>
          <UsageChart usage={stream.value} />
        </>
      )}
    </Flex>
  );
}

/**
 * A figure in a card; `note` takes its place, in body type, when there is no figure to show yet;
 * `detail` says under it what the figure belongs to.
 */
function Figure({
  label,
  value,
  note,
  detail,
  testId,
  detailTestId,
}: {
  label: string;
  value?: string;
  note?: string;
  detail?: string;
  testId?: string;
  detailTestId?: string;
}) {
  return (
    <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
      {/* Full height, so a card with a detail line does not stand taller than its neighbours. */}
      <Box background="neutral0" hasRadius shadow="tableShadow" padding={4} height="100%">
        <Typography variant="sigma" textColor="neutral600">
          {label}
        </Typography>
        <Box paddingTop={1}>
          {value !== undefined ? (
            <Typography variant="beta" data-testid={testId}>
              {value}
            </Typography>
          ) : (
            <Typography variant="omega" textColor="neutral600" data-testid={testId}>
              {note}
            </Typography>
          )}
        </Box>
        {detail && (
          <Typography tag="p" variant="pi" textColor="neutral600" data-testid={detailTestId}>
            {detail}
          </Typography>
        )}
      </Box>
    </Grid.Item>
  );
}
