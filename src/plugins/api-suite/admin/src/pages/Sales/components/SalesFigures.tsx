import { Box, Flex, Grid, Loader, Typography } from '@strapi/design-system';
import type { SalesPeriod, SalesReport } from '../../../api';
import { ProblemAlert } from '../../../components/ProblemAlert';
import type { Loaded } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';

const PERIODS: SalesPeriod[] = ['day', 'week', 'month'];

/**
 * The sales report for the last day, 7 days and 30 days: paid, shipped and delivered orders
 * placed in the period, their revenue and the mean order.
 */
export function SalesFigures({ report }: { report: Loaded<SalesReport> }) {
  const t = useT();
  const format = useFormat();
  const data = report.data;
  return (
    <Box>
      {report.status === 'error' && <ProblemAlert problem={report.problem} onRetry={() => void report.reload()} />}
      {!report.data && report.status === 'loading' && <Loader>{t('state.loading')}</Loader>}
      {data && (
        <>
          <Grid.Root gap={4}>
            {PERIODS.map((period) => {
              const figures = data.periods[period];
              return (
                <Grid.Item key={period} col={4} s={12} direction="column" alignItems="stretch">
                  <Box background="neutral0" shadow="tableShadow" hasRadius padding={6} data-testid={`sales-${period}`} width="100%">
                    <Typography variant="sigma" textColor="neutral600" tag="h2">
                      {t(`sales.period.${period}`)}
                    </Typography>
                    <Box paddingTop={2}>
                      <Typography variant="alpha" tag="p" data-testid={`sales-${period}-revenue`}>
                        {format.money(figures.revenue, data.currency)}
                      </Typography>
                    </Box>
                    <Flex paddingTop={3} gap={6}>
                      <Figure label={t('sales.orders')} value={format.number(figures.count)} testId={`sales-${period}-count`} />
                      <Figure
                        label={t('sales.average')}
                        value={format.money(meanOf(figures), data.currency)}
                        testId={`sales-${period}-average`}
                      />
                    </Flex>
                  </Box>
                </Grid.Item>
              );
            })}
          </Grid.Root>
          <Box paddingTop={2}>
            <Typography variant="pi" textColor="neutral600">
              {t('sales.counted')}
            </Typography>
          </Box>
        </>
      )}
    </Box>
  );
}

/**
 * The mean order to the cent. The report's `avgOrder` is rounded to a whole unit, as the API's
 * contract has it; revenue and count are exact, so the page divides them itself.
 */
function meanOf(figures: { count: number; revenue: number }): number {
  return figures.count > 0 ? Math.round((figures.revenue * 100) / figures.count) / 100 : 0;
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Flex direction="column" alignItems="flex-start" gap={1}>
      <Typography variant="pi" textColor="neutral600">
        {label}
      </Typography>
      <Typography variant="delta" tag="p" data-testid={testId}>
        {value}
      </Typography>
    </Flex>
  );
}
