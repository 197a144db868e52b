import { Flex, SingleSelect, SingleSelectOption, Textarea, Typography } from '@strapi/design-system';
import { useNotification } from '@strapi/strapi/admin';
import { useState } from 'react';
import { useApiSuiteClient, type EventType } from '../../../api';
import { FormField, FormModal } from '../../../components/FormModal';
import { useAction } from '../../../hooks/useAction';
import { fieldError } from '../../../../../shared/http';
import { useT } from '../../../utils/useT';

/**
 * Publish an event by hand to every subscriber of its type. Only the types the server says may be
 * published by hand (`publishable`) and that are switched on are offered; the others are named
 * below the choice, with why.
 */
export function PublishEventModal({ types, onClose }: { types: EventType[]; onClose: () => void }) {
  const t = useT();
  const client = useApiSuiteClient();
  const { toggleNotification } = useNotification();
  const { run, busy, problem } = useAction();
  const offered = types.filter((type) => type.publishable && type.is_active);
  const byPlugin = types.filter((type) => !type.publishable).map((type) => type.name);
  const [name, setName] = useState(offered[0]?.name ?? '');
  const [payload, setPayload] = useState(() => JSON.stringify(offered[0]?.example_payload ?? {}, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);

  const choose = (next: string) => {
    setName(next);
    setPayload(JSON.stringify(offered.find((type) => type.name === next)?.example_payload ?? {}, null, 2));
    setJsonError(null);
  };

  const publish = async () => {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(payload) as Record<string, unknown>;
      setJsonError(null);
    } catch (error) {
      setJsonError(`${t('form.invalidJson')}: ${(error as Error).message}`);
      return;
    }
    const published = await run('publish', () => client.webhooks.publish({ type: name, payload: data }), { quiet: true });
    if (!published) return;
    toggleNotification({ type: 'success', message: t('webhooks.publish.done', { count: published.deliveries }) });
    onClose();
  };

  return (
    <FormModal
      title={t('webhooks.publish.title')}
      onClose={onClose}
      problem={problem}
      submit={{ label: t('webhooks.publish.submit'), onClick: () => void publish(), loading: busy === 'publish', disabled: name === '' }}
    >
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Typography variant="omega" textColor="neutral600">
          {t('webhooks.publish.intro')}
        </Typography>
        <FormField name="type" label={t('webhooks.publish.type')} error={fieldError(problem, 'type')}>
          <SingleSelect value={name} onChange={(value) => choose(String(value))}>
            {offered.map((type) => (
              <SingleSelectOption key={type.name} value={type.name}>
                {type.name}
              </SingleSelectOption>
            ))}
          </SingleSelect>
        </FormField>
        {byPlugin.length > 0 && (
          <Typography variant="pi" textColor="neutral600" data-testid="not-publishable">
            {t('webhooks.publish.notOffered', { names: byPlugin.join(', ') })}
          </Typography>
        )}
        <FormField
          name="payload"
          label={t('webhooks.publish.payload')}
          error={jsonError ?? fieldError(problem, 'payload')}
          hint={t('webhooks.publish.payloadHint')}
        >
          <Textarea
            value={payload}
            onChange={(event) => setPayload(event.currentTarget.value)}
            style={{ fontFamily: 'monospace', minHeight: '16rem' }}
          />
        </FormField>
      </Flex>
    </FormModal>
  );
}
