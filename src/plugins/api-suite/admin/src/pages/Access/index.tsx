import { Box, Tabs } from '@strapi/design-system';
import { Layouts, Page } from '@strapi/strapi/admin';
import { useSearchParams } from 'react-router-dom';
import { useT } from '../../utils/useT';
import { KeysTab } from './components/KeysTab';
import { PlansTab } from './components/PlansTab';
import { UsageTab } from './components/UsageTab';

const TABS = ['keys', 'plans', 'usage'] as const;
type Tab = (typeof TABS)[number];

/** API access: keys issued to users, the plans they are sold on, and live usage. */
export function AccessPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = TABS.find((candidate) => candidate === requested) ?? 'keys';
  return (
    <Page.Main>
      <Page.Title>{t('access.title')}</Page.Title>
      <Layouts.Header title={t('access.title')} subtitle={t('access.subtitle')} />
      <Layouts.Content>
        <Tabs.Root value={tab} onValueChange={(value) => setParams({ tab: value }, { replace: true })}>
          <Tabs.List aria-label={t('access.title')}>
            <Tabs.Trigger value="keys">{t('access.tab.keys')}</Tabs.Trigger>
            <Tabs.Trigger value="plans">{t('access.tab.plans')}</Tabs.Trigger>
            <Tabs.Trigger value="usage">{t('access.tab.usage')}</Tabs.Trigger>
          </Tabs.List>
          <Box paddingTop={4}>
            <Tabs.Content value="keys">
              <KeysTab />
            </Tabs.Content>
            <Tabs.Content value="plans">
              <PlansTab />
            </Tabs.Content>
            <Tabs.Content value="usage">{tab === 'usage' && <UsageTab />}</Tabs.Content>
          </Box>
        </Tabs.Root>
      </Layouts.Content>
    </Page.Main>
  );
}
