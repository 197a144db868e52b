import { Grid, NumberInput, Typography } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type ApiKey } from '../../../api';
import { FormField, FormModal } from '../../../components/FormModal';
import { useAction } from '../../../hooks/useAction';
import { useT } from '../../../utils/useT';

/** A key's own minute and month limits; an empty field goes back to the plan's. The server's messages appear under each field. */
export function KeyLimitsModal({ apiKey, onClose, onSaved }: { apiKey: ApiKey; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const client = useApiSuiteClient();
  const { run, busy, problem } = useAction();
  const [minute, setMinute] = useState<number | undefined>(apiKey.requests_per_minute ?? undefined);
  const [month, setMonth] = useState<number | undefined>(apiKey.requests_per_month ?? undefined);

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
    <FormModal
      title={t('access.keys.limitsTitle', { prefix: apiKey.key_prefix })}
      onClose={onClose}
      problem={problem}
      submit={{ label: t('action.save'), onClick: () => void save(), loading: busy === 'save' }}
    >
      <Typography tag="p" variant="omega" textColor="neutral600" paddingBottom={4}>
        {t('access.keys.limitsIntro', { plan: apiKey.plan?.name ?? '—' })}
      </Typography>
      <Grid.Root gap={4}>
        <FormField col={6} name="requests_per_minute" label={t('access.keys.minute')}>
          <NumberInput value={minute} placeholder={t('access.keys.planLimit')} onValueChange={setMinute} />
        </FormField>
        <FormField col={6} name="requests_per_month" label={t('access.keys.month')} hint={t('access.keys.monthHint')}>
          <NumberInput value={month} placeholder={t('access.keys.planLimit')} onValueChange={setMonth} />
        </FormField>
      </Grid.Root>
    </FormModal>
  );
}
