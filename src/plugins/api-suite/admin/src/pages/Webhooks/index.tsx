import { TabbedPage } from '../../components/TabbedPage';
import { useT } from '../../utils/useT';
import { EventTypesTab } from './components/EventTypesTab';
import { SubscriptionsTab } from './components/SubscriptionsTab';

/** Webhooks: every consumer's subscriptions, and the event types they may subscribe to. */
export function WebhooksPage() {
  const t = useT();
  return (
    <TabbedPage
      title={t('webhooks.title')}
      subtitle={t('webhooks.subtitle')}
      tabs={[
        { value: 'subscriptions', label: t('webhooks.tab.subscriptions'), content: <SubscriptionsTab /> },
        { value: 'event-types', label: t('webhooks.tab.eventTypes'), content: <EventTypesTab /> },
      ]}
    />
  );
}
