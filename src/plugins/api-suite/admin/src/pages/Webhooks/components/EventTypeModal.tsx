import { Button, Field, Flex, Modal, Textarea, Toggle } from '@strapi/design-system';
import { useState } from 'react';
import { useApiSuiteClient, type EventType } from '../../../api';
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
    <Modal.Root open onOpenChange={(open) => !open && onClose()}>
      <Modal.Content>
        <Modal.Header>
          <Modal.Title>{t('webhooks.eventTypes.edit', { name: type.name })}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {problem && Object.keys(problem.fields).length === 0 && <ProblemAlert problem={problem} />}
          <Flex direction="column" alignItems="stretch" gap={4}>
            <Field.Root name="description" error={fieldError(problem, 'description')}>
              <Field.Label>{t('webhooks.eventTypes.column.description')}</Field.Label>
              <Textarea value={description} disabled={readOnly} onChange={(event) => setDescription(event.currentTarget.value)} />
              <Field.Error />
            </Field.Root>
            <Field.Root
              name="example_payload"
              error={jsonError ?? fieldError(problem, 'example_payload')}
              hint={t('webhooks.eventTypes.exampleHint')}
            >
              <Field.Label>{t('webhooks.eventTypes.example')}</Field.Label>
              <Textarea
                value={example}
                disabled={readOnly}
                onChange={(event) => setExample(event.currentTarget.value)}
                style={{ fontFamily: 'monospace', minHeight: '16rem' }}
              />
              <Field.Hint />
              <Field.Error />
            </Field.Root>
            <Field.Root name="schema" hint={t('webhooks.eventTypes.schemaHint')}>
              <Field.Label>{t('webhooks.eventTypes.schema')}</Field.Label>
              <Textarea value={JSON.stringify(type.schema, null, 2)} readOnly style={{ fontFamily: 'monospace', minHeight: '12rem' }} />
              <Field.Hint />
            </Field.Root>
            <Field.Root name="is_active" error={fieldError(problem, 'is_active')} hint={t('webhooks.eventTypes.activeHint')}>
              <Field.Label>{t('webhooks.eventTypes.active')}</Field.Label>
              <Toggle
                disabled={readOnly}
                onLabel={t('toggle.on')}
                offLabel={t('toggle.off')}
                checked={isActive}
                onChange={(event) => setIsActive(event.currentTarget.checked)}
              />
              <Field.Hint />
              <Field.Error />
            </Field.Root>
          </Flex>
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{t(readOnly ? 'action.close' : 'action.cancel')}</Button>
          </Modal.Close>
          {!readOnly && (
            <Button onClick={() => void save()} loading={busy === 'save'}>
              {t('action.save')}
            </Button>
          )}
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
}
