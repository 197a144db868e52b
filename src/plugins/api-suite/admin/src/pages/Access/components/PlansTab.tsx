import { Badge, Box, Button, Flex, Loader, Tbody, Td, Tr, Typography } from '@strapi/design-system';
import { Pencil, Plus } from '@strapi/icons';
import { useState } from 'react';
import type { Plan } from '../../../api';
import { EmptyState } from '../../../components/EmptyState';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useFeaturePermissions } from '../../../hooks/useFeaturePermissions';
import { useFormat, useT } from '../../../utils/useT';
import { usePlans } from '../hooks/usePlans';
import { PlanFormModal } from './PlanFormModal';
import { DataTable } from '../../../components/DataTable';
import { EndpointList } from '../../../components/EndpointList';
import { ListToolbar } from '../../../components/ListToolbar';
import { useSiteSettings } from '../../../hooks/useSiteSettings';

/** The plans keys are sold on: quotas, reachable endpoints, price; create and edit. */
export function PlansTab() {
  const t = useT();
  const format = useFormat();
  const { canManage } = useFeaturePermissions('access');
  const plans = usePlans();
  const settings = useSiteSettings();
  // Prices in the shop's currency, as on the Sales page; a bare number until the settings arrive.
  const price = (value: number, own: string | null = null) => {
    const currency = own ?? settings?.commerce.currency;
    return currency ? format.money(value, currency) : format.number(value);
  };
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);

  const create = canManage ? (
    <Button startIcon={<Plus />} onClick={() => setEditing('new')}>
      {t('access.plans.new')}
    </Button>
  ) : undefined;

  return (
    <Box>
      {plans.data && plans.data.length > 0 && (
        <ListToolbar summary={t('access.plans.summary', { count: plans.data.length })} action={create} />
      )}
      {plans.status === 'error' && <ProblemAlert problem={plans.problem} onRetry={() => void plans.reload()} />}
      {!plans.data && plans.status === 'loading' && <Loader>{t('state.loading')}</Loader>}
      {plans.data && plans.data.length === 0 && <EmptyState content={t('access.plans.empty')} action={create} />}
      {plans.data && plans.data.length > 0 && (
        <DataTable
          headers={[
            t('access.plans.column.name'),
            t('access.plans.column.quota'),
            t('access.plans.column.endpoints'),
            t('access.plans.column.price'),
            t('access.plans.column.overage'),
            t('access.plans.column.holds'),
            ...(canManage ? [t('table.actions')] : []),
          ]}
          rowCount={plans.data.length}
        >
          <Tbody>
            {plans.data.map((plan) => (
              <Tr key={plan.id} data-testid="plan-row">
                <Td>
                  <Flex gap={2}>
                    <Typography fontWeight="bold">{plan.name}</Typography>
                    {plan.is_default && <Badge variant="primary">{t('access.plans.default')}</Badge>}
                  </Flex>
                </Td>
                <Td>
                  {/* One column for both limits, one for what the plan holds: the table fits a 1440-pixel window. */}
                  <Flex direction="column" alignItems="flex-start">
                    <Typography>
                      {t('access.plans.perMonth', {
                        count: plan.requests_per_month === -1 ? t('access.plans.unlimited') : format.number(plan.requests_per_month),
                      })}
                    </Typography>
                    <Typography variant="pi" textColor="neutral600">
                      {t('access.plans.perMinute', { count: format.number(plan.requests_per_minute) })}
                    </Typography>
                  </Flex>
                </Td>
                <Td>
                  <EndpointList entries={plan.endpoints} groups={settings?.access.endpointGroups} />
                </Td>
                <Td>
                  {/* The monthly price, then what else buys the plan: a yearly price and a first purchase's free days. */}
                  <Flex direction="column" alignItems="flex-start" data-testid="plan-price">
                    <Typography>{price(plan.price_monthly, plan.currency)}</Typography>
                    {plan.price_yearly !== null && (
                      <Typography variant="pi" textColor="neutral600">
                        {t('access.plans.perYear', { price: price(plan.price_yearly, plan.currency) })}
                      </Typography>
                    )}
                    {plan.trial_days > 0 && (
                      <Typography variant="pi" textColor="neutral600">
                        {t('access.plans.trial', { count: plan.trial_days })}
                      </Typography>
                    )}
                  </Flex>
                </Td>
                <Td>
                  <Typography textColor={plan.overage_unit_amount === null ? 'neutral600' : undefined}>
                    {plan.overage_unit_amount === null
                      ? t('access.plans.hardLimit')
                      : t('access.plans.overagePer1000', { price: price(plan.overage_unit_amount / 100, plan.currency) })}
                  </Typography>
                </Td>
                <Td>
                  <Flex direction="column" alignItems="flex-start">
                    <Typography data-testid="plan-consumers">{t('access.plans.consumers', { count: plan.consumers })}</Typography>
                    <Typography data-testid="plan-keys">{t('access.plans.keys', { count: plan.keys })}</Typography>
                  </Flex>
                </Td>
                {canManage && (
                  <Td>
                    <Button size="S" variant="tertiary" startIcon={<Pencil />} onClick={() => setEditing(plan)}>
                      {t('action.edit')}
                    </Button>
                  </Td>
                )}
              </Tr>
            ))}
          </Tbody>
        </DataTable>
      )}
      {editing && (
        <PlanFormModal
          plan={editing === 'new' ? undefined : editing}
          currency={settings?.commerce.currency}
          groups={settings?.access.endpointGroups}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void plans.reload();
          }}
        />
      )}
    </Box>
  );
}
