import { Flex, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type ApiKey, type Consumer } from '../../../api';
import { FormField, FormModal } from '../../../components/FormModal';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useAction } from '../../../hooks/useAction';
import { useT } from '../../../utils/useT';
import { usePlans } from '../hooks/usePlans';
import { PlanSelect } from './PlanSelect';

/**
 * Grant a consumer a plan, or take the grant back. The consumer's keys without a plan of their own
 * and their JWT follow it at once; a live billing subscription still comes first.
 */
export function GrantPlanModal({
  owner,
  ownerPlan,
  onClose,
  onSaved,
}: {
  owner: Consumer;
  ownerPlan: ApiKey['owner_plan'];
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useT();
  const client = useApiSuiteClient();
  const plans = usePlans();
  const { run, busy, problem } = useAction();
  const [planId, setPlanId] = useState<number | null>(ownerPlan?.granted?.id ?? null);

  const save = async () => {
    const saved = await run('grant', () => client.access.grantPlan(owner.id, planId), {
      success: planId === null ? 'access.grant.cleared' : 'access.grant.saved',
      quiet: true,
    });
    if (saved) onSaved();
  };

  return (
    <FormModal
      title={t('access.grant.title', { user: owner.username })}
      onClose={onClose}
      problem={problem}
      submit={{ label: t('action.save'), onClick: () => void save(), loading: busy === 'grant' }}
    >
      {plans.status === 'error' && <ProblemAlert problem={plans.problem} />}
      <Flex direction="column" alignItems="stretch" gap={4}>
        {ownerPlan && (
          <Typography tag="p" variant="omega" textColor="neutral600" data-testid="grant-current">
            {t('access.grant.current', {
              user: owner.username,
              plan: ownerPlan.name,
              source: t(`access.planSource.${ownerPlan.source}`),
            })}
          </Typography>
        )}
        <FormField name="plan_id" label={t('access.grant.field')} hint={t('access.grant.hint')}>
          <PlanSelect plans={plans.data ?? []} value={planId} onChange={setPlanId} noneLabel={t('access.grant.none')} />
        </FormField>
      </Flex>
    </FormModal>
  );
}
