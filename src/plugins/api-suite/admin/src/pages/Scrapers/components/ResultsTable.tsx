import { Badge, Box, Field, Loader, SingleSelect, SingleSelectOption, Tbody, Td, Tr, Typography } from '@strapi/design-system';
import { CellText } from '../../../components/CellText';
import { useEffect, useState } from 'react';
import { useApiSuiteClient, type Change, type Selectors } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { Pager } from '../../../components/Pager';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useLoad, useReloadWhen } from '../../../hooks/useLoad';
import { useT } from '../../../utils/useT';
import { DataTable } from '../../../components/DataTable';

/** The filter's choices, as the `change` query they send ('' for every result). */
const FILTERS = ['', 'new,changed', 'new', 'changed', 'unchanged'] as const;
const CHANGE_TONES: Record<Change, 'success' | 'warning' | 'neutral'> = { new: 'success', changed: 'warning', unchanged: 'neutral' };

/**
 * A run's results, one row per item, one column per selector field (or the page title without
 * selectors). With change detection on, each row shows its change and the list filters by it.
 */
export function ResultsTable({
  scraperId,
  runId,
  selectors,
  changeDetection,
  version,
}: {
  scraperId: number;
  runId: number;
  selectors: Selectors | null;
  changeDetection: boolean;
  version: string;
}) {
  const t = useT();
  const client = useApiSuiteClient();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('');
  useEffect(() => setPage(1), [runId, filter]);
  const results = useLoad(
    () => client.scrapers.results(scraperId, runId, page, filter === '' ? [] : (filter.split(',') as Change[])),
    [client, scraperId, runId, page, filter]
  );
  useReloadWhen(version, results.reload);

  const filterControl = changeDetection && (
    <Box paddingBottom={3} width="24rem">
      <Field.Root name="change-filter">
        <Field.Label>{t('scrapers.results.filter')}</Field.Label>
        <SingleSelect
          value={filter === '' ? 'all' : filter}
          onChange={(value) => setFilter(value === 'all' ? '' : (String(value) as (typeof FILTERS)[number]))}
        >
          {FILTERS.map((choice) => (
            <SingleSelectOption key={choice || 'all'} value={choice || 'all'}>
              {t(`scrapers.results.filter.${choice || 'all'}`)}
            </SingleSelectOption>
          ))}
        </SingleSelect>
      </Field.Root>
    </Box>
  );

  if (results.status === 'error' && !results.data) return <ProblemAlert problem={results.problem} onRetry={() => void results.reload()} />;
  if (!results.data) return <Loader>{t('state.loading')}</Loader>;
  if (results.data.meta.total === 0) {
    return (
      <Box>
        {filter !== '' && filterControl}
        <EmptyState content={t(filter === '' ? 'scrapers.results.empty' : 'scrapers.results.filtered.empty')} />
      </Box>
    );
  }

  const fields = selectors ? Object.keys(selectors.fields) : ['title'];
  const headers = [...(changeDetection ? [t('scrapers.results.change')] : []), ...fields, t('scrapers.results.page')];
  return (
    <Box>
      {filterControl}
      <DataTable headers={headers} rowCount={results.data.data.length}>
        <Tbody>
          {results.data.data.map((result) => (
            <Tr key={result.id} data-testid="result-row" data-change={result.change ?? ''}>
              {changeDetection && (
                <Td>
                  {/* Null until the run completes, and for an item without a key. */}
                  {result.change ? (
                    <Badge variant={CHANGE_TONES[result.change]}>{t(`change.${result.change}`)}</Badge>
                  ) : (
                    <Typography>—</Typography>
                  )}
                </Td>
              )}
              {fields.map((field) => (
                <Td key={field}>
                  <CellText maxWidth="20rem">{show(result.data[field])}</CellText>
                </Td>
              ))}
              <Td>
                <CellText variant="pi" textColor="neutral600" maxWidth="18rem">
                  {result.url}
                </CellText>
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
