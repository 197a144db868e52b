import { Box, Button, Td, Tr, Typography } from '@strapi/design-system';
import { Plus } from '@strapi/icons';
import { Layouts, Page } from '@strapi/strapi/admin';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiSuiteClient } from '../../api';
import { EmptyState } from '../../components/EmptyState';
import { StatusBadge } from '../../components/StatusBadge';
import { useFeaturePermissions } from '../../hooks/useFeaturePermissions';
import { useLoad } from '../../hooks/useLoad';
import { useFormat, useT } from '../../utils/useT';
import { ScraperFormModal } from './components/ScraperFormModal';
import { useScraperOptions } from './hooks/useScraperOptions';
import { CellText } from '../../components/CellText';
import { PagedTable, TextCell } from '../../components/DataTable';

const LIVE_REFRESH_MS = 3_000;

/** Scrapers of every consumer: status, next scheduled run and latest run; create one. */
export function ScrapersPage() {
  const t = useT();
  const format = useFormat();
  const navigate = useNavigate();
  const client = useApiSuiteClient();
  const { canManage } = useFeaturePermissions('scrapers');
  const options = useScraperOptions();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [live, setLive] = useState(false);
  const list = useLoad(() => client.scrapers.list(page), [client, page], { refreshMs: live ? LIVE_REFRESH_MS : null });
  const running = Boolean(list.data?.data.some((scraper) => scraper.status === 'running'));
  useEffect(() => setLive(running), [running]);

  const create = canManage ? (
    <Button startIcon={<Plus />} onClick={() => setCreating(true)}>
      {t('scrapers.new')}
    </Button>
  ) : undefined;

  return (
    <Page.Main>
      <Page.Title>{t('scrapers.title')}</Page.Title>
      <Layouts.Header title={t('scrapers.title')} subtitle={t('scrapers.subtitle')} primaryAction={create} />
      <Layouts.Content>
        <PagedTable
          load={list}
          headers={['name', 'owner', 'status', 'lastRun', 'nextRun', 'schedule'].map((column) => t(`scrapers.column.${column}`))}
          empty={<EmptyState content={t(canManage ? 'scrapers.empty.manage' : 'scrapers.empty')} action={create} />}
          onPage={setPage}
          row={(scraper) => (
            <Tr key={scraper.id} onClick={() => navigate(String(scraper.id))} style={{ cursor: 'pointer' }} data-testid="scraper-row">
              <Td>
                <CellText fontWeight="bold" maxWidth="22rem">
                  {scraper.name}
                </CellText>
                <Typography variant="pi" textColor="neutral600" tag="p" ellipsis title={scraper.url} style={{ maxWidth: '22rem' }}>
                  {scraper.url}
                </Typography>
              </Td>
              <Td>
                <CellText maxWidth="12rem">{scraper.owner?.username ?? '—'}</CellText>
              </Td>
              <Td>
                <StatusBadge status={scraper.status} />
              </Td>
              <Td>
                {scraper.latest_run ? (
                  <Box>
                    <StatusBadge status={scraper.latest_run.status} />{' '}
                    <Typography variant="pi" textColor="neutral600">
                      {t('scrapers.items', { count: scraper.latest_run.items_collected })}
                    </Typography>
                  </Box>
                ) : (
                  <Typography textColor="neutral600">{t('scrapers.neverRun')}</Typography>
                )}
              </Td>
              <TextCell>{scraper.next_run_at ? format.dateTime(scraper.next_run_at) : t('scrapers.manualOnly')}</TextCell>
              <TextCell style={{ fontFamily: 'monospace' }}>{scraper.schedule ?? '—'}</TextCell>
            </Tr>
          )}
        />
        {creating && (
          <ScraperFormModal
            options={options}
            onClose={() => setCreating(false)}
            onSaved={(scraper) => {
              setCreating(false);
              navigate(String(scraper.id));
            }}
          />
        )}
      </Layouts.Content>
    </Page.Main>
  );
}
