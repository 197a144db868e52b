import { DateTimePicker, Flex, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient } from '../../../api';
import { FormField, FormModal } from '../../../components/FormModal';
import { useAction } from '../../../hooks/useAction';
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

  const recover = async () => {
    const body = { since: since?.toISOString() ?? '', ...(until ? { until: until.toISOString() } : {}) };
    const outcome = await run('recover', () => client.webhooks.recover(subscriptionId, body), { quiet: true });
    if (outcome) onRecovered(outcome.deliveries);
  };

  return (
    <FormModal
      title={t('webhooks.recover.title')}
      onClose={onClose}
      problem={problem}
      submit={{ label: t('webhooks.recover.submit'), onClick: () => void recover(), loading: busy === 'recover' }}
    >
      <Typography tag="p" variant="omega" textColor="neutral600" paddingBottom={4}>
        {t('webhooks.recover.intro')}
      </Typography>
      <Flex direction="column" alignItems="stretch" gap={4}>
        <FormField name="since" label={t('webhooks.recover.since')} required>
          <DateTimePicker
            value={since ?? null}
            onChange={setSince}
            dateLabel={t('webhooks.recover.sinceDate')}
            timeLabel={t('webhooks.recover.sinceTime')}
          />
        </FormField>
        <FormField name="until" label={t('webhooks.recover.until')} hint={t('webhooks.recover.untilHint')}>
          <DateTimePicker
            value={until ?? null}
            onChange={setUntil}
            onClear={() => setUntil(undefined)}
            dateLabel={t('webhooks.recover.untilDate')}
            timeLabel={t('webhooks.recover.untilTime')}
          />
        </FormField>
      </Flex>
    </FormModal>
  );
}
