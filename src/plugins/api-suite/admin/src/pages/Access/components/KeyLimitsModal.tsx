import { Button, Field, Grid, Modal, NumberInput, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type ApiKey } from '../../../api';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useAction } from '../../../hooks/useAction';
import { fieldError } from '../../../../../shared/http';
import { useT } from '../../../utils/useT';

/** A key's own minute and month limits; an empty field goes back to the plan's. The server's messages appear under each field. */
export function KeyLimitsModal({ apiKey, onClose, onSaved }: { apiKey: ApiKey; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const client = useApiSuiteClient();
  const { run, busy, problem } = useAction();
  const [minute, setMinute] = useState<number | undefined>(apiKey.requests_per_minute ?? undefined);
  const [month, setMonth] = useState<number | undefined>(apiKey.requests_per_month ?? undefined);
  const generalProblem = problem && Object.keys(problem.fields).filter((field) => field !== '').length === 0;

  const save = async () => {
    const saved = await run(
      'save',
      () => client.access.setKeyLimits(apiKey.id, { requests_per_minute: minute ?? null, requests_per_month: month ?? null }),
      {
        success: 'access.keys.limitsSaved',
        quiet: true,
      }
    );
    if (saved) onSaved();
  };

  return (
    <Modal.Root open onOpenChange={(open) => !open && onClose()}>
      <Modal.Content>
        <Modal.Header>
          <Modal.Title>{t('access.keys.limitsTitle', { prefix: apiKey.key_prefix })}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {generalProblem && <ProblemAlert problem={problem} />}
          <Typography tag="p" variant="omega" textColor="neutral600" paddingBottom={4}>
            {t('access.keys.limitsIntro', { plan: apiKey.plan?.name ?? '—' })}
          </Typography>
          <Grid.Root gap={4}>
            <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
              <Field.Root name="requests_per_minute" error={fieldError(problem, 'requests_per_minute')}>
                <Field.Label>{t('access.keys.minute')}</Field.Label>
                <NumberInput value={minute} placeholder={t('access.keys.planLimit')} onValueChange={setMinute} />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
            <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
              <Field.Root name="requests_per_month" error={fieldError(problem, 'requests_per_month')} hint={t('access.keys.monthHint')}>
                <Field.Label>{t('access.keys.month')}</Field.Label>
                <NumberInput value={month} placeholder={t('access.keys.planLimit')} onValueChange={setMonth} />
                <Field.Hint />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
          </Grid.Root>
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{t('action.cancel')}</Button>
          </Modal.Close>
          <Button onClick={() => void save()} loading={busy === 'save'}>
            {t('action.save')}
          </Button>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
}
