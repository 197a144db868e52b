import { Box, Button, Flex, Loader, Typography } from '@strapi/design-system';
import { ArrowClockwise, ClockCounterClockwise, Pencil, PaperPlane } from '@strapi/icons';
import { useNotification } from '@strapi/strapi/admin';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { useApiSuiteClient } from '../../api';
import { DetailGrid, DetailItem, DetailPage, DetailPending, DetailSection } from '../../components/DetailPage';
import { JsonBlock } from '../../components/JsonBlock';
import { StatusBadge } from '../../components/StatusBadge';
import { useAction } from '../../hooks/useAction';
import { useFeaturePermissions } from '../../hooks/useFeaturePermissions';
import { useLoad } from '../../hooks/useLoad';
import { useFormat, useT } from '../../utils/useT';
import { DeliveriesTable } from './components/DeliveriesTable';
import { FilterModal } from './components/FilterModal';
import { RecoverModal } from './components/RecoverModal';
import { subscriptionStatus } from './components/SubscriptionsTab';

/** One subscription: its settings, its payload filter (shown and changed), test, re-enable and recover, and its deliveries with their attempts. */
export function SubscriptionPage() {
  const { id = '' } = useParams<{ id: string }>();
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const { toggleNotification } = useNotification();
  const { canManage } = useFeaturePermissions('webhooks');
  const subscription = useLoad(() => client.webhooks.subscription(id), [client, id]);
  const { run, busy } = useAction();
  const [recovering, setRecovering] = useState(false);
  const [editingFilter, setEditingFilter] = useState(false);
  const [recoveries, setRecoveries] = useState(0);
  const deliveriesKey = subscription.data ? `${subscription.data.last_delivery_at}-${subscription.data.failure_count}-${recoveries}` : '';

  const sendTest = async () => {
    const outcome = await run('test', () => client.webhooks.sendTest(id));
    if (!outcome) return;
    toggleNotification(
      outcome.delivered
        ? { type: 'success', message: t('webhooks.test.delivered', { status: outcome.status_code ?? '—', ms: outcome.duration_ms }) }
        : {
            type: 'warning',
            message: t('webhooks.test.failed', { status: outcome.status_code ?? t('webhooks.test.noAnswer'), ms: outcome.duration_ms }),
          }
    );
    await subscription.reload();
  };

  const setActive = async (isActive: boolean) => {
    const updated = await run('active', () => client.webhooks.setActive(id, isActive), {
      success: isActive ? 'webhooks.enabled' : 'webhooks.paused',
    });
    if (updated) await subscription.reload();
  };

  const recovered = (count: number) => {
    setRecovering(false);
    setRecoveries((value) => value + 1);
    toggleNotification({ type: count > 0 ? 'success' : 'info', message: t('webhooks.recover.queued', { count }) });
  };

  if (!subscription.data) return <DetailPending title={t('webhooks.subscription')} problem={subscription.problem} />;
  const data = subscription.data;
  const status = subscriptionStatus(data);

  return (
    <DetailPage
      title={data.endpoint_url}
      subtitle={t('webhooks.subscription.subtitle', {
        owner: data.consumer ? `${data.consumer.username} <${data.consumer.email}>` : data.consumer_id,
      })}
      primaryAction={
        canManage ? (
          <Flex gap={2}>
            {!data.is_active && (
              <Button variant="secondary" startIcon={<ArrowClockwise />} loading={busy === 'active'} onClick={() => void setActive(true)}>
                {t('webhooks.reenable')}
              </Button>
            )}
            {data.is_active && (
              <Button variant="secondary" startIcon={<ClockCounterClockwise />} onClick={() => setRecovering(true)}>
                {t('webhooks.recover')}
              </Button>
            )}
            <Button startIcon={<PaperPlane />} loading={busy === 'test'} onClick={() => void sendTest()}>
              {t('webhooks.sendTest')}
            </Button>
          </Flex>
        ) : undefined
      }
    >
      <Flex direction="column" alignItems="stretch" gap={6}>
        <DetailGrid
          footer={
            data.description && (
              <Box paddingTop={4}>
                <Typography textColor="neutral600">{data.description}</Typography>
              </Box>
            )
          }
        >
          <DetailItem label={t('webhooks.column.status')}>
            <StatusBadge status={status} />
            {data.disabled_at && (
              <Typography variant="pi" textColor="danger600">
                {' '}
                {t('webhooks.disabledAt', { at: format.dateTime(data.disabled_at) })}
              </Typography>
            )}
          </DetailItem>
          <DetailItem label={t('webhooks.column.failures')}>
            <Typography textColor={data.failure_count > 0 ? 'danger600' : undefined}>{format.number(data.failure_count)}</Typography>
          </DetailItem>
          <DetailItem label={t('webhooks.column.lastDelivery')}>
            <Typography>{format.dateTime(data.last_delivery_at)}</Typography>
          </DetailItem>
          <DetailItem label={t('webhooks.column.events')}>
            <Typography>{data.events.join(', ')}</Typography>
          </DetailItem>
          <DetailItem label={t('webhooks.timeout')}>
            <Typography>{t('unit.seconds', { value: data.timeout_seconds })}</Typography>
          </DetailItem>
          <DetailItem label={t('webhooks.rateLimit')}>
            <Typography>
              {data.rate_limit === null ? t('webhooks.rateLimit.none') : t('webhooks.rateLimit.value', { value: data.rate_limit })}
            </Typography>
          </DetailItem>
          <DetailItem label={t('webhooks.created')}>
            <Typography>{format.dateTime(data.created_at)}</Typography>
          </DetailItem>
        </DetailGrid>
        <DetailSection title={t('webhooks.filter')}>
          <Box background="neutral0" shadow="tableShadow" hasRadius padding={6}>
            <Flex direction="column" alignItems="stretch" gap={3}>
              <Box data-testid="subscription-filter">
                {data.filter ? (
                  <JsonBlock value={data.filter} maxHeight="16rem" />
                ) : (
                  <Typography textColor="neutral600">{t('webhooks.filter.none')}</Typography>
                )}
              </Box>
              {canManage && (
                <Box>
                  <Button variant="secondary" startIcon={<Pencil />} onClick={() => setEditingFilter(true)}>
                    {t('webhooks.filter.edit')}
                  </Button>
                </Box>
              )}
            </Flex>
          </Box>
        </DetailSection>
        <DetailSection title={t('webhooks.deliveries')}>
          {subscription.status === 'loading' && <Loader small>{t('state.loading')}</Loader>}
          <DeliveriesTable
            subscriptionId={id}
            refreshKey={deliveriesKey}
            subscriptionActive={data.is_active}
            onChanged={() => void subscription.reload()}
          />
        </DetailSection>
      </Flex>
      {editingFilter && (
        <FilterModal
          subscription={data}
          onClose={() => setEditingFilter(false)}
          onSaved={async () => {
            setEditingFilter(false);
            await subscription.reload();
          }}
        />
      )}
      {recovering && <RecoverModal subscriptionId={id} onClose={() => setRecovering(false)} onRecovered={recovered} />}
    </DetailPage>
  );
}
