import { TabbedPage } from '../../components/TabbedPage';
import { useT } from '../../utils/useT';
import { KeysTab } from './components/KeysTab';
import { PlansTab } from './components/PlansTab';
import { UsageTab } from './components/UsageTab';

/** API access: keys issued to users, the plans they are sold on, and live usage. */
export function AccessPage() {
  const t = useT();
  return (
    <TabbedPage
      title={t('access.title')}
      subtitle={t('access.subtitle')}
      tabs={[
        { value: 'keys', label: t('access.tab.keys'), content: <KeysTab /> },
        { value: 'plans', label: t('access.tab.plans'), content: <PlansTab /> },
        { value: 'usage', label: t('access.tab.usage'), content: <UsageTab />, lazy: true },
      ]}
    />
  );
}
