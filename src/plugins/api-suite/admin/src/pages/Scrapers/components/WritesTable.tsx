import { Badge, Link, Td, Tr, Typography } from '@strapi/design-system';
import { useEffect, useState } from 'react';
import { NavLink } from 'react-router-dom';
import { useApiSuiteClient, type TargetWrite } from '../../../api';
import { CellText } from '../../../components/CellText';
import { PagedTable } from '../../../components/DataTable';
import { EmptyState } from '../../../components/EmptyState';
import { useLoad, useReloadWhen } from '../../../hooks/useLoad';
import { useFormat, useT } from '../../../utils/useT';

const ACTION_TONES: Record<TargetWrite['action'], 'success' | 'warning' | 'secondary' | 'danger'> = {
  created: 'success',
  updated: 'warning',
  unpublished: 'secondary',
  deleted: 'danger',
};

/**
 * What a run wrote into its scraper's content type: each document it created, changed,
 * unpublished or deleted, opening in the Content Manager where an editor reviews and publishes it.
 */
export function WritesTable({ scraperId, runId, version }: { scraperId: number; runId: number; version: string }) {
  const t = useT();
  const format = useFormat();
  const client = useApiSuiteClient();
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [runId]);
  const writes = useLoad(() => client.scrapers.runWrites(scraperId, runId, page), [client, scraperId, runId, page]);
  useReloadWhen(version, writes.reload);

  return (
    <PagedTable
      load={writes}
      headers={['action', 'key', 'document', 'at'].map((column) => t(`scrapers.writes.${column}`))}
      empty={<EmptyState content={t('scrapers.writes.empty')} />}
      onPage={setPage}
      row={(write) => (
        <Tr key={`${write.document_id}-${write.written_at}-${write.action}`} data-testid="write-row" data-action={write.action}>
          <Td>
            <Badge variant={ACTION_TONES[write.action]}>{t(`scrapers.writes.action.${write.action}`)}</Badge>
          </Td>
          <Td>
            <CellText maxWidth="20rem">{write.item_key ?? '—'}</CellText>
          </Td>
          <Td>
            {write.action === 'deleted' ? (
              <Typography textColor="neutral600">{write.document_id}</Typography>
            ) : (
              <Link tag={NavLink} to={`/content-manager/collection-types/${write.content_type}/${write.document_id}`}>
                {t('scrapers.writes.open')}
              </Link>
            )}
          </Td>
          <Td>
            <Typography variant="pi">{format.dateTime(write.written_at)}</Typography>
          </Td>
        </Tr>
      )}
    />
  );
}
