import { Box, Flex, Link, Td, Tr, Typography } from '@strapi/design-system';
import { NavLink } from 'react-router-dom';
import { useApiSuiteClient, type OrderStatus } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { StatusBadge } from '../../../components/StatusBadge';
import { StatusFilterHeading, useStatusFilter } from '../../../components/StatusFilterHeading';
import { useLoad, useReloadWhen } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';
import { CellText } from '../../../components/CellText';
import { PagedTable, TextCell } from '../../../components/DataTable';

const STATUSES: OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];
const ORDER_UID = 'plugin::api-suite.order';

/**
 * The latest orders, newest first: who bought, how many units, the total, the status and when
 * it was placed and paid. Each opens in the content manager, where editors change its status.
 */
export function OrdersTable({ generation, refreshMs }: { generation: number; refreshMs: number }) {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const { page, setPage, filter, heading } = useStatusFilter(STATUSES);
  const orders = useLoad(() => client.sales.orders(page, filter), [client, page, filter], { refreshMs });
  useReloadWhen(generation, orders.reload);

  return (
    <Box>
      <StatusFilterHeading title={t('sales.latest')} label={t('sales.filter')} {...heading} />
      <PagedTable
        load={orders}
        headers={['order', 'buyer', 'items', 'total', 'status', 'placed', 'paid'].map((column) => t(`sales.column.${column}`))}
        empty={<EmptyState content={t(filter ? 'sales.orders.emptyStatus' : 'sales.orders.empty')} />}
        onPage={setPage}
        row={(order) => (
          <Tr key={order.id} data-testid="order-row">
            <Td>
              <Link tag={NavLink} to={`/content-manager/collection-types/${ORDER_UID}/${order.document_id}`} title={order.id}>
                <span style={{ fontFamily: 'monospace' }}>{`${order.id.slice(0, 8)}…`}</span>
              </Link>
            </Td>
            <Td>
              {order.buyer ? (
                <Flex direction="column" alignItems="flex-start">
                  <CellText maxWidth="14rem">{order.buyer.username}</CellText>
                  <CellText variant="pi" textColor="neutral600" maxWidth="14rem">
                    {order.buyer.email}
                  </CellText>
                </Flex>
              ) : (
                <Typography>—</Typography>
              )}
            </Td>
            <TextCell>{format.number(order.items)}</TextCell>
            <TextCell>{order.currency ? format.money(order.total, order.currency) : format.number(order.total)}</TextCell>
            <Td>
              <StatusBadge status={order.status} />
            </Td>
            <TextCell>{format.dateTime(order.created_at)}</TextCell>
            <TextCell>{format.dateTime(order.paid_at)}</TextCell>
          </Tr>
        )}
      />
    </Box>
  );
}
