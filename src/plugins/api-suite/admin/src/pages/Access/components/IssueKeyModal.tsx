import { Box, Button, Checkbox, Field, Flex, Modal, TextInput, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type IssuedKey, type Scope } from '../../../api';
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

  const generalProblem = problem && Object.keys(problem.fields).filter((field) => field !== '').length === 0;

  return (
    <Modal.Root open onOpenChange={(open) => !open && onClose()}>
      <Modal.Content>
        <Modal.Header>
          <Modal.Title>{t('access.keys.issue')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {generalProblem && <ProblemAlert problem={problem} />}
          {plans.status === 'error' && <ProblemAlert problem={plans.problem} />}
          <Flex direction="column" alignItems="stretch" gap={4}>
            <UserPicker name="user_id" label={t('access.keys.field.owner')} value={userId} onChange={setUserId} error={error('user_id')} />
            <Field.Root name="plan_id" error={error('plan_id')} hint={t('access.keys.field.planHint')}>
              <Field.Label>{t('access.keys.field.plan')}</Field.Label>
              <PlanSelect plans={plans.data ?? []} value={planId} onChange={setPlanId} noneLabel={t('access.keys.field.ownersPlan')} />
              <Field.Hint />
              <Field.Error />
            </Field.Root>
            <Field.Root name="name" error={error('name')} hint={t('access.keys.field.nameHint')}>
              <Field.Label>{t('access.keys.field.name')}</Field.Label>
              <TextInput value={name} onChange={(event: React.ChangeEvent<HTMLInputElement>) => setName(event.currentTarget.value)} />
              <Field.Hint />
              <Field.Error />
            </Field.Root>
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
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{t('action.cancel')}</Button>
          </Modal.Close>
          <Button onClick={() => void issue()} loading={busy === 'issue'}>
            {t('access.keys.issueSubmit')}
          </Button>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
}
