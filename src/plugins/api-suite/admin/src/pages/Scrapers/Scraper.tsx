import { Box, Button, Flex, Loader, ProgressBar, Typography } from '@strapi/design-system';
import { Pencil, Play, Stop, Trash } from '@strapi/icons';
import { ConfirmDialog } from '@strapi/strapi/admin';
import { Dialog } from '@strapi/design-system';
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useApiSuiteClient, type Run } from '../../api';
import { DetailGrid, DetailItem, DetailPage, DetailPending, DetailSection } from '../../components/DetailPage';
import { StatusBadge } from '../../components/StatusBadge';
import { useAction } from '../../hooks/useAction';
import { useFeaturePermissions } from '../../hooks/useFeaturePermissions';
import { useLoad } from '../../hooks/useLoad';
import { useFormat, useT } from '../../utils/useT';
import { ResultsTable } from './components/ResultsTable';
import { RunsTable } from './components/RunsTable';
import { WritesTable } from './components/WritesTable';
import { ScraperFormModal } from './components/ScraperFormModal';
import { useScraperOptions } from './hooks/useScraperOptions';

/** While a run is going, its counts are read every second (the worker saves them every second). */
const PROGRESS_MS = 1_000;

/** One scraper: its settings, run and stop with live progress, its run history and a run's results. */
export function ScraperPage() {
  const { id: rawId = '' } = useParams<{ id: string }>();
  const id = Number(rawId);
  const t = useT();
  const format = useFormat();
  const navigate = useNavigate();
  const client = useApiSuiteClient();
  const options = useScraperOptions();
  const { canManage } = useFeaturePermissions('scrapers');
  const [running, setRunning] = useState(false);
  const scraper = useLoad(() => client.scrapers.get(id), [client, id], { refreshMs: running ? PROGRESS_MS : null });
  // A link may name the run to show (`?run=12`, from the Content Manager's "written by" panel).
  const [searchParams] = useSearchParams();
  const linkedRun = Number(searchParams.get('run'));
  const [selectedRun, setSelectedRun] = useState<number | null>(Number.isInteger(linkedRun) && linkedRun > 0 ? linkedRun : null);
  const [editing, setEditing] = useState(false);
  const { run, busy } = useAction();

  const latest = scraper.data?.latest_run ?? null;
  const isRunning = scraper.data?.status === 'running';
  useEffect(() => setRunning(isRunning), [isRunning]);
  // The run history and results follow the latest run's progress and outcome.
  const runsVersion = latest ? `${latest.id}-${latest.status}-${latest.items_collected}-${latest.pages_fetched}` : '';

  const start = async () => {
    const started = await run('run', () => client.scrapers.run(id), { success: 'scrapers.started' });
    if (started) {
      setSelectedRun(started.run_id);
      await scraper.reload();
    }
  };
  const stop = async () => {
    const stopped = await run('stop', () => client.scrapers.stop(id), { success: 'scrapers.stopped' });
    if (stopped) await scraper.reload();
  };
  const remove = async () => {
    const removed = await run(
      'delete',
      async () => {
        await client.scrapers.remove(id);
        return true;
      },
      { success: 'scrapers.deleted' }
    );
    if (removed) navigate('..', { relative: 'path' });
  };

  if (!scraper.data) return <DetailPending title={t('scrapers.title')} problem={scraper.problem} />;
  const data = scraper.data;
  const shownRun = selectedRun ?? latest?.id ?? null;

  return (
    <DetailPage
      title={data.name}
      subtitle={data.url}
      primaryAction={
        canManage ? (
          <Flex gap={2}>
            {isRunning ? (
              <Button variant="danger" startIcon={<Stop />} loading={busy === 'stop'} onClick={() => void stop()}>
                {t('scrapers.stop')}
              </Button>
            ) : (
              <Button startIcon={<Play />} loading={busy === 'run'} onClick={() => void start()}>
                {t('scrapers.run')}
              </Button>
            )}
          </Flex>
        ) : undefined
      }
      secondaryAction={
        canManage ? (
          <Flex gap={2}>
            <Button variant="tertiary" startIcon={<Pencil />} onClick={() => setEditing(true)}>
              {t('action.edit')}
            </Button>
            <Dialog.Root>
              <Dialog.Trigger>
                <Button variant="danger-light" startIcon={<Trash />} loading={busy === 'delete'}>
                  {t('action.delete')}
                </Button>
              </Dialog.Trigger>
              <ConfirmDialog onConfirm={() => void remove()}>{t('scrapers.deleteConfirm', { name: data.name })}</ConfirmDialog>
            </Dialog.Root>
          </Flex>
        ) : undefined
      }
    >
      <Flex direction="column" alignItems="stretch" gap={6}>
        <DetailGrid>
          <DetailItem label={t('scrapers.column.status')}>
            <StatusBadge status={data.status} />
          </DetailItem>
          <DetailItem label={t('scrapers.column.owner')}>
            <Typography>{data.owner ? `${data.owner.username} <${data.owner.email}>` : '—'}</Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.column.nextRun')}>
            <Typography>{data.next_run_at ? format.dateTime(data.next_run_at) : t('scrapers.manualOnly')}</Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.column.schedule')}>
            <Typography style={{ fontFamily: 'monospace' }}>{data.schedule ?? '—'}</Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.field.maxPages')}>
            <Typography>{data.max_pages}</Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.field.rateLimit')}>
            <Typography>{data.rate_limit}</Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.field.followLinks')}>
            <Typography>{t(data.follow_links ? 'toggle.on' : 'toggle.off')}</Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.field.robots')}>
            <Typography>{t(data.respect_robots_txt ? 'toggle.on' : 'toggle.off')}</Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.field.selectors')}>
            <Typography style={{ fontFamily: 'monospace' }}>
              {data.selectors
                ? [
                    data.selectors.item ? `item: ${data.selectors.item}` : null,
                    ...Object.entries(data.selectors.fields).map(([name, css]) => `${name}: ${css}`),
                  ]
                    .filter(Boolean)
                    .join(' · ')
                : t('scrapers.noSelectors')}
            </Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.field.changeDetection')}>
            <Typography data-testid="change-detection">
              {data.change_detection
                ? data.change_detection.key
                  ? t('scrapers.changeDetection.byKey', { key: data.change_detection.key })
                  : t('scrapers.changeDetection.byUrl')
                : t('scrapers.changeDetection.off')}
            </Typography>
          </DetailItem>
          <DetailItem label={t('scrapers.target.title')}>
            <Typography data-testid="target">
              {data.target
                ? t('scrapers.target.summary', {
                    type: data.target.type,
                    key: data.target.key,
                    publish: t(`scrapers.target.publish.${data.target.publish}`),
                  })
                : t('scrapers.target.none')}
            </Typography>
          </DetailItem>
        </DetailGrid>
        {latest && (latest.status === 'running' || latest.status === 'pending') && <RunProgress run={latest} maxPages={data.max_pages} />}
        <DetailSection title={t('scrapers.runs')}>
          <RunsTable scraperId={id} version={runsVersion} selected={shownRun} onSelect={setSelectedRun} canRun={canManage} />
        </DetailSection>
        {shownRun !== null && data.target && (
          <DetailSection title={t('scrapers.writes', { run: shownRun, type: data.target.type })}>
            <WritesTable scraperId={id} runId={shownRun} version={runsVersion} />
          </DetailSection>
        )}
        {shownRun !== null && (
          <DetailSection title={t('scrapers.results', { run: shownRun })}>
            <ResultsTable
              scraperId={id}
              runId={shownRun}
              selectors={data.selectors}
              changeDetection={data.change_detection !== null}
              version={runsVersion}
            />
          </DetailSection>
        )}
      </Flex>
      {editing && (
        <ScraperFormModal
          scraper={data}
          options={options}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            void scraper.reload();
          }}
        />
      )}
    </DetailPage>
  );
}

/** The running run's counts as they come, with the pages against the scraper's page limit. */
function RunProgress({ run, maxPages }: { run: Run; maxPages: number }) {
  const t = useT();
  const done = run.pages_fetched + run.pages_failed;
  return (
    <Box background="primary100" hasRadius padding={4} data-testid="run-progress">
      <Flex direction="column" alignItems="stretch" gap={2}>
        <Flex gap={2}>
          <Loader small />
          <Typography fontWeight="bold">
            {t(run.status === 'pending' ? 'scrapers.progress.pending' : 'scrapers.progress.running', { run: run.id })}
          </Typography>
        </Flex>
        <ProgressBar value={Math.min(100, Math.round((done / Math.max(1, maxPages)) * 100))} />
        <Typography variant="pi">
          {t('scrapers.progress.counts', { pages: run.pages_fetched, failed: run.pages_failed, items: run.items_collected, max: maxPages })}
        </Typography>
      </Flex>
    </Box>
  );
}
