import { Box, Loader, Tbody, Td, Tr, Typography } from '@strapi/design-system';
import { useCallback, useEffect, useState } from 'react';
import { useApiSuiteClient, type Selectors } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { Pager } from '../../../components/Pager';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useLoad, useReloadWhen } from '../../../hooks/useLoad';
import { useT } from '../../../utils/useT';
import { DataTable } from '../../../components/DataTable';

/** A run's results, one row per item, one column per selector field (or the page title without selectors). */
export function ResultsTable({ scraperId, runId, selectors, version }: { scraperId: number; runId: number; selectors: Selectors | null; version: string }) {
  const t = useT();
  const client = useApiSuiteClient();
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [runId]);
  const results = useLoad(useCallback(() => client.scrapers.results(scraperId, runId, page), [client, scraperId, runId, page]));
  useReloadWhen(version, results.reload);

  if (results.status === 'error' && !results.data) return <ProblemAlert problem={results.problem} onRetry={() => void results.reload()} />;
  if (!results.data) return <Loader>{t('state.loading')}</Loader>;
  if (results.data.meta.total === 0) return <EmptyState content={t('scrapers.results.empty')} />;

  const fields = selectors ? Object.keys(selectors.fields) : ['title'];
  return (
    <Box>
      <DataTable headers={[...fields.map((field) => field), t('scrapers.results.page')]} rowCount={results.data.data.length}>
        <Tbody>
          {results.data.data.map((result) => (
            <Tr key={result.id} data-testid="result-row">
              {fields.map((field) => (
                <Td key={field}>
                  <Typography>{show(result.data[field])}</Typography>
                </Td>
              ))}
              <Td>
                <Typography variant="pi" textColor="neutral600">
                  {result.url}
                </Typography>
              </Td>
            </Tr>
          ))}
        </Tbody>
      </DataTable>
      <Pager page={results.data.meta.page} limit={results.data.meta.limit} total={results.data.meta.total} onPage={setPage} />
    </Box>
  );
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
