import { Flex, Textarea } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type EventType } from '../../../api';
import { FormField, FormModal, OnOffToggle } from '../../../components/FormModal';
import { ProblemAlert } from '../../../components/ProblemAlert';
import { useAction } from '../../../hooks/useAction';
import { fieldError } from '../../../../../shared/http';
import { useT } from '../../../utils/useT';

/** Describe an event type, change its example payload (which must fit the type's schema, shown below it), switch it on or off (or only read them). */
export function EventTypeModal({
  type,
  readOnly,
  onClose,
  onSaved,
}: {
  type: EventType;
  readOnly: boolean;
  onClose: () => void;
  onSaved: () => Promise<void>;
}) {
  const t = useT();
  const client = useApiSuiteClient();
  const { run, busy, problem } = useAction();
  const [description, setDescription] = useState(type.description);
  const [example, setExample] = useState(JSON.stringify(type.example_payload, null, 2));
  const [isActive, setIsActive] = useState(type.is_active);
  const [jsonError, setJsonError] = useState<string | null>(null);

  const save = async () => {
    let examplePayload: unknown;
    try {
      examplePayload = example.trim() === '' ? null : (JSON.parse(example) as unknown);
      setJsonError(null);
    } catch (error) {
      setJsonError(`${t('form.invalidJson')}: ${(error as Error).message}`);
      return;
    }
    const saved = await run(
      'save',
      () => client.webhooks.updateEventType(type.name, { description, example_payload: examplePayload, is_active: isActive }),
      {
        success: 'form.saved',
        quiet: true,
      }
    );
    if (saved) await onSaved();
  };

  return (
    <FormModal
      title={t('webhooks.eventTypes.edit', { name: type.name })}
      onClose={onClose}
      cancelLabel={t(readOnly ? 'action.close' : 'action.cancel')}
      submit={readOnly ? undefined : { label: t('action.save'), onClick: () => void save(), loading: busy === 'save' }}
    >
      {problem && Object.keys(problem.fields).length === 0 && <ProblemAlert problem={problem} />}
      <Flex direction="column" alignItems="stretch" gap={4}>
        <FormField name="description" label={t('webhooks.eventTypes.column.description')} error={fieldError(problem, 'description')}>
          <Textarea value={description} disabled={readOnly} onChange={(event) => setDescription(event.currentTarget.value)} />
        </FormField>
        <FormField
          name="example_payload"
          label={t('webhooks.eventTypes.example')}
          error={jsonError ?? fieldError(problem, 'example_payload')}
          hint={t('webhooks.eventTypes.exampleHint')}
        >
          <Textarea
            value={example}
            disabled={readOnly}
            onChange={(event) => setExample(event.currentTarget.value)}
            style={{ fontFamily: 'monospace', minHeight: '16rem' }}
          />
        </FormField>
        <FormField name="schema" label={t('webhooks.eventTypes.schema')} hint={t('webhooks.eventTypes.schemaHint')}>
          <Textarea value={JSON.stringify(type.schema, null, 2)} readOnly style={{ fontFamily: 'monospace', minHeight: '12rem' }} />
        </FormField>
        <FormField
          name="is_active"
          label={t('webhooks.eventTypes.active')}
          error={fieldError(problem, 'is_active')}
          hint={t('webhooks.eventTypes.activeHint')}
        >
          <OnOffToggle disabled={readOnly} checked={isActive} onCheckedChange={setIsActive} />
        </FormField>
      </Flex>
    </FormModal>
  );
}
