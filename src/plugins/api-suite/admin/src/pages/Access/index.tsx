import { TabbedPage } from '../../components/TabbedPage';
import { useT } from '../../utils/useT';
import { ConsumersTab } from './components/ConsumersTab';
import { KeysTab } from './components/KeysTab';
import { PlansTab } from './components/PlansTab';
import { UsageTab } from './components/UsageTab';

/** API access: keys issued to users, the consumers and the plan each is on, the plans they are sold on, and live usage. */
export function AccessPage() {
  const t = useT();
  return (
    <TabbedPage
      title={t('access.title')}
      subtitle={t('access.subtitle')}
      tabs={[
        { value: 'keys', label: t('access.tab.keys'), content: <KeysTab /> },
        { value: 'consumers', label: t('access.tab.consumers'), content: <ConsumersTab />, lazy: true },
        { value: 'plans', label: t('access.tab.plans'), content: <PlansTab /> },
        { value: 'usage', label: t('access.tab.usage'), content: <UsageTab />, lazy: true },
      ]}
    />
  );
}
