import { Td, Tr } from '@strapi/design-system';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiSuiteClient, type Subscription } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { StatusBadge } from '../../../components/StatusBadge';
import { useLoad } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';
import { CellText } from '../../../components/CellText';
import { PagedTable, TextCell } from '../../../components/DataTable';

export function subscriptionStatus(subscription: Pick<Subscription, 'is_active' | 'disabled_at'>): 'active' | 'disabled' | 'paused' {
  if (subscription.is_active) return 'active';
  return subscription.disabled_at ? 'disabled' : 'paused';
}

/** Every consumer's subscriptions with status, failure count and last delivery; a row opens its deliveries. */
export function SubscriptionsTab() {
  const t = useT();
  const format = useFormat();
  const navigate = useNavigate();
  const client = useApiSuiteClient();
  const [page, setPage] = useState(1);
  const list = useLoad(() => client.webhooks.subscriptions(page), [client, page]);

  return (
    <PagedTable
      load={list}
      headers={['endpoint', 'owner', 'events', 'status', 'failures', 'lastDelivery'].map((column) => t(`webhooks.column.${column}`))}
      empty={<EmptyState content={t('webhooks.subscriptions.empty')} />}
      onPage={setPage}
      staleProblem="plain"
      row={(subscription) => (
        <Tr
          key={subscription.id}
          onClick={() => navigate(`subscriptions/${subscription.id}`)}
          style={{ cursor: 'pointer' }}
          data-testid="subscription-row"
        >
          <Td>
            <CellText fontWeight="bold" maxWidth="22rem">
              {subscription.endpoint_url}
            </CellText>
            {subscription.description && (
              <CellText variant="pi" textColor="neutral600" maxWidth="22rem" wrap>
                {subscription.description}
              </CellText>
            )}
          </Td>
          <Td>
            <CellText maxWidth="12rem">{subscription.consumer ? subscription.consumer.username : subscription.consumer_id}</CellText>
          </Td>
          <Td>
            <CellText wrap maxWidth="16rem">
              {subscription.events.join(', ')}
            </CellText>
          </Td>
          <Td>
            <StatusBadge status={subscriptionStatus(subscription)} />
          </Td>
          <TextCell textColor={subscription.failure_count > 0 ? 'danger600' : undefined}>
            {format.number(subscription.failure_count)}
          </TextCell>
          <TextCell>{format.dateTime(subscription.last_delivery_at)}</TextCell>
        </Tr>
      )}
    />
  );
}
