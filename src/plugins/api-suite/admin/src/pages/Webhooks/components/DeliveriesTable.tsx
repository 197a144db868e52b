import { Td, Tr } from '@strapi/design-system';
import { useEffect, useState } from 'react';
import { useApiSuiteClient, type Delivery } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { StatusBadge } from '../../../components/StatusBadge';
import { useLoad, useReloadWhen } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';
import { DeliveryModal } from './DeliveryModal';
import { PagedTable, TextCell } from '../../../components/DataTable';

/** Polled while any shown delivery still has an attempt to come, so the list follows the engine. */
const LIVE_REFRESH_MS = 2_000;

export function DeliveriesTable({
  subscriptionId,
  refreshKey,
  subscriptionActive,
  onChanged,
}: {
  subscriptionId: string;
  /** Changes when the subscription saw a delivery (a test sent): the list is read again. */
  refreshKey: string;
  subscriptionActive: boolean;
  onChanged: () => void;
}) {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Delivery | null>(null);
  const [live, setLive] = useState(false);
  const list = useLoad(() => client.webhooks.deliveries(subscriptionId, page), [client, subscriptionId, page], {
    refreshMs: live ? LIVE_REFRESH_MS : null,
  });
  useReloadWhen(refreshKey, list.reload);
  useEffect(() => {
    setLive(Boolean(list.data?.data.some((delivery) => delivery.status === 'pending' || delivery.status === 'retrying')));
  }, [list.data]);

  return (
    <>
      <PagedTable
        load={list}
        headers={['event', 'status', 'attempts', 'response', 'created', 'next'].map((column) =>
          t(column === 'status' ? 'webhooks.column.status' : `webhooks.deliveries.column.${column}`)
        )}
        empty={<EmptyState content={t('webhooks.deliveries.empty')} />}
        onPage={setPage}
        staleProblem="hidden"
        row={(delivery) => (
          <Tr key={delivery.id} onClick={() => setOpen(delivery)} style={{ cursor: 'pointer' }} data-testid="delivery-row">
            <TextCell fontWeight="bold" style={{ fontFamily: 'monospace' }}>
              {delivery.event_type}
            </TextCell>
            <Td>
              <StatusBadge status={delivery.status} />
            </Td>
            <TextCell>{delivery.attempts}</TextCell>
            <TextCell>{delivery.response_status ?? '—'}</TextCell>
            <TextCell>{format.dateTime(delivery.created_at)}</TextCell>
            <TextCell>{format.dateTime(delivery.next_attempt_at)}</TextCell>
          </Tr>
        )}
      />
      {open && (
        <DeliveryModal
          deliveryId={open.id}
          subscriptionActive={subscriptionActive}
          onClose={() => setOpen(null)}
          onChanged={() => {
            void list.reload();
            onChanged();
          }}
        />
      )}
    </>
  );
}
