import { Button, DateTimePicker, Field, Flex, Modal, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient } from '../../../api';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useAction } from '../../../hooks/useAction';
import { fieldError } from '../../../../../shared/http';
import { useT } from '../../../utils/useT';

const HOUR_MS = 3_600_000;

/**
 * Recover: send a time range's failed and cancelled deliveries again (an endpoint that was down
 * catches up). The range starts an hour back and ends now unless the editor says otherwise; the
 * server refuses a start more than 14 days back, and says so under the field.
 */
export function RecoverModal({
  subscriptionId,
  onClose,
  onRecovered,
}: {
  subscriptionId: string;
  onClose: () => void;
  onRecovered: (count: number) => void;
}) {
  const t = useT();
  const client = useApiSuiteClient();
  const { run, busy, problem } = useAction();
  const [since, setSince] = useState<Date | undefined>(() => new Date(Date.now() - HOUR_MS));
  const [until, setUntil] = useState<Date | undefined>(undefined);
  const generalProblem = problem && Object.keys(problem.fields).filter((field) => field !== '').length === 0;

  const recover = async () => {
    const body = { since: since?.toISOString() ?? '', ...(until ? { until: until.toISOString() } : {}) };
    const outcome = await run('recover', () => client.webhooks.recover(subscriptionId, body), { quiet: true });
    if (outcome) onRecovered(outcome.deliveries);
  };

  return (
    <Modal.Root open onOpenChange={(open) => !open && onClose()}>
      <Modal.Content>
        <Modal.Header>
          <Modal.Title>{t('webhooks.recover.title')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {generalProblem && <ProblemAlert problem={problem} />}
          <Typography tag="p" variant="omega" textColor="neutral600" paddingBottom={4}>
            {t('webhooks.recover.intro')}
          </Typography>
          <Flex direction="column" alignItems="stretch" gap={4}>
            <Field.Root name="since" error={fieldError(problem, 'since')} required>
              <Field.Label>{t('webhooks.recover.since')}</Field.Label>
              <DateTimePicker
                value={since ?? null}
                onChange={setSince}
                dateLabel={t('webhooks.recover.sinceDate')}
                timeLabel={t('webhooks.recover.sinceTime')}
              />
              <Field.Error />
            </Field.Root>
            <Field.Root name="until" error={fieldError(problem, 'until')} hint={t('webhooks.recover.untilHint')}>
              <Field.Label>{t('webhooks.recover.until')}</Field.Label>
              <DateTimePicker
                value={until ?? null}
                onChange={setUntil}
                onClear={() => setUntil(undefined)}
                dateLabel={t('webhooks.recover.untilDate')}
                timeLabel={t('webhooks.recover.untilTime')}
              />
              <Field.Hint />
              <Field.Error />
            </Field.Root>
          </Flex>
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{t('action.cancel')}</Button>
          </Modal.Close>
          <Button onClick={() => void recover()} loading={busy === 'recover'}>
            {t('webhooks.recover.submit')}
          </Button>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
}
