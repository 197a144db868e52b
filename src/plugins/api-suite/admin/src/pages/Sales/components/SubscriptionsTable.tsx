import { Alert, Box, Flex, Td, Tr, Typography } from '@strapi/design-system';
import { useApiSuiteClient, type BillingSubscriptionStatus } from '../../../api';
import { PagedTable, TextCell } from '../../../components/DataTable';
import { EmptyState } from '../../../components/EmptyState';
import { StatusBadge } from '../../../components/StatusBadge';
import { StatusFilterHeading, useStatusFilter } from '../../../components/StatusFilterHeading';
import { useLoad, useReloadWhen } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';

const STATUSES: BillingSubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid', 'canceled'];

/**
 * Consumers' API subscriptions (plans bought through Stripe Billing), most recently changed
 * first: who, which plan (and which one their keys are on now), status, period end, grace period
 * and the overage reported to Stripe. Says so when billing is off or not ready.
 */
export function SubscriptionsTable({ generation, refreshMs }: { generation: number; refreshMs: number }) {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const { page, setPage, filter, heading } = useStatusFilter(STATUSES);
  const subscriptions = useLoad(() => client.billing.subscriptions(page, filter), [client, page, filter], { refreshMs });
  useReloadWhen(generation, subscriptions.reload);
  const billing = subscriptions.data?.meta.billing;

  return (
    <Box>
      <StatusFilterHeading title={t('sales.subscriptions')} label={t('sales.subscriptions.filter')} {...heading} />
      {billing && !billing.configured && (
        <Box paddingBottom={4}>
          <Alert variant="default" closeLabel={t('action.close')} title="">
            {t('sales.subscriptions.off')}
          </Alert>
        </Box>
      )}
      {billing && billing.configured && !billing.ready && (
        <Box paddingBottom={4}>
          <Alert variant="warning" closeLabel={t('action.close')} title="">
            {t('sales.subscriptions.notReady', { reason: billing.reason ?? '' })}
          </Alert>
        </Box>
      )}
      <PagedTable
        load={subscriptions}
        headers={['consumer', 'plan', 'status', 'periodEnd', 'overage'].map((column) => t(`sales.subscriptions.column.${column}`))}
        empty={<EmptyState content={t(filter ? 'sales.subscriptions.emptyStatus' : 'sales.subscriptions.empty')} />}
        onPage={setPage}
        row={(row) => (
          <Tr key={row.subscription_id} data-testid="subscription-row">
            <Td>
              <Flex direction="column" alignItems="flex-start">
                <Typography>{row.consumer?.username ?? '—'}</Typography>
                <Typography variant="pi" textColor="neutral600">
                  {row.consumer?.email ?? row.customer_id}
                </Typography>
              </Flex>
            </Td>
            <Td>
              <Flex direction="column" alignItems="flex-start">
                <Typography>{row.plan?.name ?? '—'}</Typography>
                {row.effective_plan && row.effective_plan.id !== row.plan?.id && (
                  <Typography variant="pi" textColor="neutral600">
                    {t('sales.subscriptions.keysOn', { plan: row.effective_plan.name })}
                  </Typography>
                )}
              </Flex>
            </Td>
            <Td>
              <Flex direction="column" alignItems="flex-start" gap={1}>
                <StatusBadge status={row.status} />
                {row.grace_until && (
                  <Typography variant="pi" textColor="neutral600">
                    {t('sales.subscriptions.grace', { date: format.dateTime(row.grace_until) })}
                  </Typography>
                )}
              </Flex>
            </Td>
            <Td>
              <Flex direction="column" alignItems="flex-start">
                <Typography>{format.dateTime(row.current_period_end)}</Typography>
                {row.cancel_at_period_end && (
                  <Typography variant="pi" textColor="neutral600">
                    {t('sales.subscriptions.cancels')}
                  </Typography>
                )}
              </Flex>
            </Td>
            <TextCell>{format.number(row.overage_reported)}</TextCell>
          </Tr>
        )}
      />
    </Box>
  );
}
