import { Box, Button, Flex } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { Layouts, Page } from '@strapi/strapi/admin';
import { useState } from 'react';
import { useApiSuiteClient } from '../../api';
import { useLoad } from '../../hooks/useLoad';
import { useT } from '../../utils/useT';
import { OrdersTable } from './components/OrdersTable';
import { SalesFigures } from './components/SalesFigures';
import { SubscriptionsTable } from './components/SubscriptionsTable';

/** Orders and payments come in on their own: the page looks again this often while it is open. */
const REFRESH_MS = 30_000;

/** Sales: the report's figures for the day, the week and the month, the latest orders, and the API subscriptions sold through Stripe Billing. */
export function SalesPage() {
  const t = useT();
  const client = useApiSuiteClient();
  const report = useLoad(() => client.sales.report(), [client], { refreshMs: REFRESH_MS });
  // Bumped by the refresh button so the orders table loads again too.
  const [generation, setGeneration] = useState(0);
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    setGeneration((value) => value + 1);
    try {
      await report.reload();
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <Page.Main>
      <Page.Title>{t('sales.title')}</Page.Title>
      <Layouts.Header
        title={t('sales.title')}
        subtitle={t('sales.subtitle')}
        primaryAction={
          <Button variant="secondary" startIcon={<ArrowClockwise />} loading={refreshing} onClick={() => void refresh()}>
            {t('sales.refresh')}
          </Button>
        }
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <SalesFigures report={report} />
          <Box>
            <OrdersTable generation={generation} refreshMs={REFRESH_MS} />
          </Box>
          <Box>
            <SubscriptionsTable generation={generation} refreshMs={REFRESH_MS} />
          </Box>
        </Flex>
      </Layouts.Content>
    </Page.Main>
  );
}
