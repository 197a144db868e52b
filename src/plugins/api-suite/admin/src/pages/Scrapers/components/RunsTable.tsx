import { Flex, Td, Tr, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { StatusBadge } from '../../../components/StatusBadge';
import { useLoad, useReloadWhen } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';
import { PagedTable, TextCell } from '../../../components/DataTable';

/** The run history, newest first; choosing a run shows its results. */
export function RunsTable({
  scraperId,
  version,
  selected,
  onSelect,
  canRun,
}: {
  scraperId: number;
  /** Changes when the latest run progressed: the history is read again. */
  version: string;
  selected: number | null;
  onSelect: (runId: number) => void;
  canRun: boolean;
}) {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const [page, setPage] = useState(1);
  const runs = useLoad(() => client.scrapers.runs(scraperId, page), [client, scraperId, page]);
  useReloadWhen(version, runs.reload);

  return (
    <PagedTable
      load={runs}
      headers={['id', 'status', 'trigger', 'started', 'finished', 'counts', 'error'].map((column) =>
        t(column === 'status' ? 'scrapers.column.status' : `scrapers.run.${column}`)
      )}
      empty={<EmptyState content={t(canRun ? 'scrapers.runs.empty.manage' : 'scrapers.runs.empty')} />}
      onPage={setPage}
      staleProblem="hidden"
      row={(run) => (
        <Tr
          key={run.id}
          onClick={() => onSelect(run.id)}
          style={{ cursor: 'pointer' }}
          aria-selected={run.id === selected}
          data-testid="run-row"
        >
          <TextCell fontWeight={run.id === selected ? 'bold' : undefined}>#{run.id}</TextCell>
          <Td>
            <StatusBadge status={run.status} />
          </Td>
          <TextCell>{t(`scrapers.trigger.${run.trigger}`)}</TextCell>
          <TextCell>{format.dateTimeShort(run.started_at)}</TextCell>
          <TextCell>{format.dateTimeShort(run.finished_at)}</TextCell>
          <Td>
            <Flex direction="column" alignItems="flex-start">
              <Typography>
                {t('scrapers.run.countsValue', { pages: run.pages_fetched, failed: run.pages_failed, items: run.items_collected })}
              </Typography>
              {/* Under the counts rather than in a column of its own, which the table has no width for; null unless the run completed with change detection on. */}
              {run.items_new !== null && run.items_changed !== null && run.items_removed !== null && (
                <Typography variant="pi" textColor="neutral600" data-testid="run-changes">
                  {t('scrapers.run.changesValue', { new: run.items_new, changed: run.items_changed, removed: run.items_removed })}
                </Typography>
              )}
            </Flex>
          </Td>
          <TextCell textColor="danger600">{run.error ?? ''}</TextCell>
        </Tr>
      )}
    />
  );
}
