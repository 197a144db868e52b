import { Box, Loader, Typography } from '@strapi/design-system';
import { Layouts, Page } from '@strapi/strapi/admin';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useT } from '../../utils/useT';
import { ActivityPanel } from './components/ActivityPanel';
import { SettingRow } from './components/SettingRow';
import { useOverview } from '../../hooks/useOverview';

export function OverviewPage() {
  const t = useT();
  const state = useOverview();

  return (
    <Page.Main>
      <Page.Title>{t('overview.title')}</Page.Title>
      <Layouts.Header title={t('overview.title')} subtitle={t('overview.subtitle')} />
      <Layouts.Content>
        {state.status === 'loading' && <Loader>{t('state.loading')}</Loader>}
        {state.status === 'error' && <ProblemAlert problem={state.problem} />}
        {state.status === 'ready' && (
          <Box background="neutral0" shadow="tableShadow" hasRadius padding={6}>
            <SettingRow label={t('overview.jobs')} value={t(`overview.jobs.${state.overview.jobs.driver}`)} />
            <SettingRow
              label={t('overview.outbound')}
              value={t(state.overview.outbound.allowPrivate ? 'overview.outbound.allowed' : 'overview.outbound.refused')}
              warning={state.overview.outbound.allowPrivate}
              hint={t(state.overview.outbound.allowPrivate ? 'overview.outbound.allowedHint' : 'overview.outbound.refusedHint')}
            />
            <SettingRow label={t('overview.database')} value={state.overview.database.client} />
            <SettingRow label={t('overview.access')} value={state.overview.access.routePrefixes.join(', ')} />
            <SettingRow
              label={t('overview.sharedKey')}
              value={t(state.overview.access.sharedKey ? 'overview.sharedKey.on' : 'overview.sharedKey.off')}
              hint={t(state.overview.access.sharedKey ? 'overview.sharedKey.onHint' : 'overview.sharedKey.offHint')}
            />
            <SettingRow
              label={t('overview.currency')}
              value={state.overview.commerce.currency.toUpperCase()}
              hint={t('overview.currencyHint')}
            />
          </Box>
        )}
        {state.status === 'ready' && <ActivityPanel activity={state.overview.activity} />}
        <Box paddingTop={6}>
          <Typography variant="omega" textColor="neutral600">
            {t('overview.pages')}
          </Typography>
        </Box>
      </Layouts.Content>
    </Page.Main>
  );
}
