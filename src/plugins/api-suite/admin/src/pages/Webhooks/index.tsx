import { Box, Tabs } from '@strapi/design-system';
import { Layouts, Page } from '@strapi/strapi/admin';
import { useSearchParams } from 'react-router-dom';
import { useT } from '../../utils/useT';
import { EventTypesTab } from './components/EventTypesTab';
import { SubscriptionsTab } from './components/SubscriptionsTab';

/** Webhooks: every consumer's subscriptions, and the event types they may subscribe to. */
export function WebhooksPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'event-types' ? 'event-types' : 'subscriptions';
  return (
    <Page.Main>
      <Page.Title>{t('webhooks.title')}</Page.Title>
      <Layouts.Header title={t('webhooks.title')} subtitle={t('webhooks.subtitle')} />
      <Layouts.Content>
        <Tabs.Root value={tab} onValueChange={(value) => setParams({ tab: value }, { replace: true })}>
          <Tabs.List aria-label={t('webhooks.title')}>
            <Tabs.Trigger value="subscriptions">{t('webhooks.tab.subscriptions')}</Tabs.Trigger>
            <Tabs.Trigger value="event-types">{t('webhooks.tab.eventTypes')}</Tabs.Trigger>
          </Tabs.List>
          <Box paddingTop={4}>
            <Tabs.Content value="subscriptions">
              <SubscriptionsTab />
            </Tabs.Content>
            <Tabs.Content value="event-types">
              <EventTypesTab />
            </Tabs.Content>
          </Box>
        </Tabs.Root>
      </Layouts.Content>
    </Page.Main>
  );
}
