import { Box, Loader, Main, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { getTranslation } from '../../utils/getTranslation';
import { SettingRow } from './components/SettingRow';
import { useOverview } from './hooks/useOverview';

export function OverviewPage() {
  const { formatMessage } = useIntl();
  const t = (id: string) => formatMessage({ id: getTranslation(id), defaultMessage: id });
  const state = useOverview();

  return (
    <Main>
      <Box padding={8}>
        <Typography variant="alpha" tag="h1">
          {t('overview.title')}
        </Typography>
        <Box paddingTop={2} paddingBottom={6}>
          <Typography variant="epsilon" textColor="neutral600">
            {t('overview.subtitle')}
          </Typography>
        </Box>
        {state.status === 'loading' && <Loader />}
        {state.status === 'error' && <Typography textColor="danger600">{t('overview.error')}</Typography>}
        {state.status === 'ready' && (
          <Box background="neutral0" shadow="tableShadow" hasRadius padding={6}>
            <SettingRow label={t('overview.jobs')} value={t(`overview.jobs.${state.overview.jobs.driver}`)} />
            <SettingRow
              label={t('overview.outbound')}
              value={t(state.overview.outbound.allowPrivate ? 'overview.outbound.allowed' : 'overview.outbound.refused')}
            />
            <SettingRow label={t('overview.database')} value={state.overview.database.client} />
            <SettingRow label={t('overview.access')} value={state.overview.access.routePrefixes.join(', ')} />
            <SettingRow
              label={t('overview.sharedKey')}
              value={t(state.overview.access.sharedKey ? 'overview.sharedKey.on' : 'overview.sharedKey.off')}
            />
          </Box>
        )}
      </Box>
    </Main>
  );
}
