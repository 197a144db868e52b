import { Box, Flex, Loader, Tbody, Tr, Typography } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { useEffect, useState } from 'react';
import { useApiSuiteClient } from '../../../api';
import { FormModal } from '../../../components/FormModal';
import { JsonBlock } from '../../../components/JsonBlock';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { StatusBadge } from '../../../components/StatusBadge';
import { useAction } from '../../../hooks/useAction';
import { useFeaturePermissions } from '../../../hooks/useFeaturePermissions';
import { useLoad } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';
import { DataTable, TextCell } from '../../../components/DataTable';

const EXCERPT = 200;
const WATCH_MS = 1_000;
/** How long a retry is watched for its attempt before the modal stops polling. */
const WATCH_LIMIT_MS = 60_000;

/** One delivery: its payload and every attempt (status code, duration, error, response excerpt); retry. */
export function DeliveryModal({
  deliveryId,
  subscriptionActive,
  onClose,
  onChanged,
}: {
  deliveryId: string;
  subscriptionActive: boolean;
  onClose: () => void;
  onChanged: () => void;
}) {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const { canManage } = useFeaturePermissions('webhooks');
  const [watching, setWatching] = useState<{ attempts: number; since: number } | null>(null);
  const delivery = useLoad(() => client.webhooks.delivery(deliveryId), [client, deliveryId], { refreshMs: watching ? WATCH_MS : null });
  const { run, busy } = useAction();

  // A retry is sent by the worker: keep reading until its attempt is recorded.
  useEffect(() => {
    if (!watching || !delivery.data) return;
    if (delivery.data.attempts.length > watching.attempts || Date.now() - watching.since > WATCH_LIMIT_MS) {
      setWatching(null);
      onChanged();
    }
  }, [delivery.data, watching, onChanged]);

  const retry = async () => {
    const before = delivery.data?.attempts.length ?? 0;
    const queued = await run('retry', () => client.webhooks.retry(deliveryId), { success: 'webhooks.retry.queued' });
    if (queued) setWatching({ attempts: before, since: Date.now() });
  };

  return (
    <FormModal
      title={delivery.data ? t('webhooks.delivery.title', { type: delivery.data.event_type }) : t('webhooks.delivery')}
      onClose={onClose}
      cancelLabel={t('action.close')}
      contentStyle={{ maxWidth: '96rem', width: '90vw' }}
      submit={
        canManage
          ? {
              label: t('webhooks.retry'),
              startIcon: <ArrowClockwise />,
              loading: busy === 'retry',
              disabled: !subscriptionActive || watching !== null || !delivery.data,
              title: subscriptionActive ? undefined : t('webhooks.retry.inactive'),
              onClick: () => void retry(),
            }
          : undefined
      }
    >
      {delivery.status === 'error' && <ProblemAlert problem={delivery.problem} />}
      {!delivery.data && delivery.status === 'loading' && <Loader>{t('state.loading')}</Loader>}
      {delivery.data && (
        <Flex direction="column" alignItems="stretch" gap={4}>
          <Flex gap={4} wrap="wrap">
            <StatusBadge status={delivery.data.status} />
            <Typography variant="pi" textColor="neutral600">
              {t('webhooks.delivery.id', { id: delivery.data.id })}
            </Typography>
            <Typography variant="pi" textColor="neutral600">
              {t('webhooks.delivery.created', { at: format.dateTime(delivery.data.created_at) })}
            </Typography>
          </Flex>
          {watching && (
            <Flex gap={2} data-testid="retry-progress">
              <Loader small />
              <Typography>{t('webhooks.retry.waiting')}</Typography>
            </Flex>
          )}
          <Box>
            <Typography variant="sigma" textColor="neutral600">
              {t('webhooks.delivery.attempts')}
            </Typography>
            {delivery.data.attempts.length === 0 ? (
              <Box paddingTop={2}>
                <Typography textColor="neutral600">{t('webhooks.delivery.noAttempts')}</Typography>
              </Box>
            ) : (
              <DataTable
                headers={['#', ...['at', 'status', 'duration', 'error', 'response'].map((column) => t(`webhooks.attempt.${column}`))]}
                rowCount={delivery.data.attempts.length}
              >
                <Tbody>
                  {delivery.data.attempts.map((attempt) => (
                    <Tr key={attempt.attempt} data-testid="attempt-row">
                      <TextCell>{attempt.attempt}</TextCell>
                      <TextCell>{format.dateTime(attempt.at)}</TextCell>
                      <TextCell textColor={attempt.status_code !== null && attempt.status_code < 300 ? 'success600' : 'danger600'}>
                        {attempt.status_code ?? '—'}
                      </TextCell>
                      <TextCell>{attempt.duration_ms === null ? '—' : t('unit.ms', { value: attempt.duration_ms })}</TextCell>
                      <TextCell textColor="danger600">{attempt.error ?? '—'}</TextCell>
                      <TextCell variant="pi" style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                        {attempt.response_body ? excerpt(attempt.response_body) : '—'}
                      </TextCell>
                    </Tr>
                  ))}
                </Tbody>
              </DataTable>
            )}
          </Box>
          <Box>
            <Box paddingBottom={2}>
              <Typography variant="sigma" textColor="neutral600">
                {t('webhooks.delivery.payload')}
              </Typography>
            </Box>
            <JsonBlock value={delivery.data.payload} />
          </Box>
        </Flex>
      )}
    </FormModal>
  );
}

function excerpt(body: string): string {
  return body.length > EXCERPT ? `${body.slice(0, EXCERPT)}…` : body;
}
