import { Box, Checkbox, Flex, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type IssuedKey, type Scope } from '../../../api';
import { FormField, FormModal, TextValueInput } from '../../../components/FormModal';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { UserPicker } from '../../../components/UserPicker';
import { useAction } from '../../../hooks/useAction';
import { fieldError } from '../../../../../shared/http';
import { useT } from '../../../utils/useT';
import { usePlans } from '../hooks/usePlans';
import { PlanSelect } from './PlanSelect';

/** Issue a key for a user, on the owner's plan unless one is chosen; the server's messages appear under each field. */
export function IssueKeyModal({ onClose, onIssued }: { onClose: () => void; onIssued: (key: IssuedKey) => void }) {
  const t = useT();
  const client = useApiSuiteClient();
  const plans = usePlans();
  const { run, busy, problem } = useAction();
  const [userId, setUserId] = useState<number | null>(null);
  const [planId, setPlanId] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read']);
  const error = (field: string) => fieldError(problem, field);

  const toggleScope = (scope: Scope, on: boolean) =>
    setScopes((current) => (on ? [...new Set([...current, scope])] : current.filter((value) => value !== scope)));

  const issue = async () => {
    const issued = await run(
      'issue',
      () =>
        client.access.issueKey({
          user_id: userId,
          scopes,
          ...(planId === null ? {} : { plan_id: planId }),
          ...(name.trim() === '' ? {} : { name: name.trim() }),
        }),
      { quiet: true }
    );
    if (issued) onIssued(issued);
  };

  return (
    <FormModal
      title={t('access.keys.issue')}
      onClose={onClose}
      problem={problem}
      submit={{ label: t('access.keys.issueSubmit'), onClick: () => void issue(), loading: busy === 'issue' }}
    >
      {plans.status === 'error' && <ProblemAlert problem={plans.problem} />}
      <Flex direction="column" alignItems="stretch" gap={4}>
        <UserPicker name="user_id" label={t('access.keys.field.owner')} value={userId} onChange={setUserId} error={error('user_id')} />
        <FormField name="plan_id" label={t('access.keys.field.plan')} hint={t('access.keys.field.planHint')}>
          <PlanSelect plans={plans.data ?? []} value={planId} onChange={setPlanId} noneLabel={t('access.keys.field.ownersPlan')} />
        </FormField>
        <FormField name="name" label={t('access.keys.field.name')} hint={t('access.keys.field.nameHint')}>
          <TextValueInput value={name} onValueChange={setName} />
        </FormField>
        <Box>
          <Typography variant="pi" fontWeight="bold">
            {t('access.keys.field.scopes')}
          </Typography>
          <Flex gap={4} paddingTop={2}>
            <Checkbox checked={scopes.includes('read')} onCheckedChange={(checked) => toggleScope('read', checked === true)}>
              {t('access.keys.scope.read')}
            </Checkbox>
            <Checkbox checked={scopes.includes('write')} onCheckedChange={(checked) => toggleScope('write', checked === true)}>
              {t('access.keys.scope.write')}
            </Checkbox>
          </Flex>
          {error('scopes') && (
            <Typography variant="pi" textColor="danger600">
              {error('scopes')}
            </Typography>
          )}
        </Box>
      </Flex>
    </FormModal>
  );
}
