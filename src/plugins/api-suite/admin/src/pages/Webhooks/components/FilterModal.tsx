import { Box, Button, Flex, Textarea, Typography } from '@strapi/design-system';
import { useMemo, useState } from 'react';
import { useApiSuiteClient, type Subscription } from '../../../api';
import { FormField, FormModal } from '../../../components/FormModal';
import { useAction } from '../../../hooks/useAction';
import { useLoad } from '../../../hooks/useLoad';
import {
  FILTER_EXAMPLE,
  filterText,
  parseFilterText,
  suggestedFields,
  typesReceived,
  typeToTry,
  textWithCondition,
} from '../../../../../shared/filter-editing';
import { placedError } from '../../../../../shared/http';
import { useFilterTry, useSettled, type FilterTry } from '../../../../../shared/use-filter-try';
import { useT, type Translate } from '../../../utils/useT';

/** At most this many field names are offered. */
const MAX_SUGGESTIONS = 40;

/**
 * Change a subscription's payload filter (JSON in Strapi's filter syntax; empty clears it). Under
 * the field, the fields its event types' data has (a click adds a condition on one) and whether
 * the example of its first type named by its name matches, as the server answers; the server's
 * refusal of a filter (invalid_filter, with the place of the fault) is shown at the field.
 */
export function FilterModal({
  subscription,
  onClose,
  onSaved,
}: {
  subscription: Subscription;
  onClose: () => void;
  onSaved: () => Promise<void>;
}) {
  const t = useT();
  const client = useApiSuiteClient();
  const catalog = useLoad(() => client.webhooks.eventTypes(), [client]);
  const { run, busy, problem } = useAction();
  const [text, setText] = useState(filterText(subscription.filter));
  // The text last sent: the server's message holds for that text only.
  const [sent, setSent] = useState<string | null>(null);
  const parsed = parseFilterText(text);
  const filter = parsed.kind === 'filter' ? parsed.filter : null;
  const active = useMemo(() => (catalog.data ?? []).filter((type) => type.is_active), [catalog.data]);
  const received = useMemo(() => typesReceived(subscription.events, active), [subscription.events, active]);
  const fields = useMemo(() => suggestedFields(received), [received]);
  const tryType = filter ? typeToTry(filter, subscription.events, active) : undefined;
  const tried = useFilterTry(filter, tryType?.name, client.webhooks.filterTest, tryType);
  const settled = useSettled(text) === text;

  const invalidText =
    parsed.kind === 'invalid' && (settled || sent === text)
      ? parsed.reason === 'json'
        ? `${t('form.invalidJson')}: ${parsed.detail}`
        : t('webhooks.filter.notObject', { example: FILTER_EXAMPLE })
      : undefined;
  const error =
    invalidText ??
    (sent === text ? placedError(problem, 'filter') : undefined) ??
    (tried.state === 'refused' && tried.problem.code === 'invalid_filter'
      ? (placedError(tried.problem, 'filter') ?? tried.problem.message)
      : undefined);

  const save = async () => {
    setSent(text);
    if (parsed.kind === 'invalid') return;
    const saved = await run('save', () => client.webhooks.setFilter(subscription.id, filter), {
      success: 'webhooks.filter.saved',
      quiet: true,
    });
    if (saved) await onSaved();
  };

  const addCondition = (index: number) => {
    const next = textWithCondition(parsed, fields[index], received);
    if (next !== undefined) setText(next);
  };

  return (
    <FormModal
      title={t('webhooks.filter.title')}
      onClose={onClose}
      problem={problem}
      submit={{ label: t('action.save'), onClick: () => void save(), loading: busy === 'save' }}
    >
      <Flex direction="column" alignItems="stretch" gap={3}>
        <FormField
          name="filter"
          label={t('webhooks.filter.label')}
          error={error ?? null}
          hint={t('webhooks.filter.hint', { example: FILTER_EXAMPLE })}
        >
          <Textarea
            value={text}
            placeholder={FILTER_EXAMPLE}
            spellCheck={false}
            onChange={(event: React.ChangeEvent<HTMLTextAreaElement>) => setText(event.currentTarget.value)}
            style={{ fontFamily: 'monospace', minHeight: '10rem' }}
          />
        </FormField>
        {fields.length > 0 && (
          <Flex wrap="wrap" gap={1} role="group" aria-label={t('webhooks.filter.fields')}>
            <Typography variant="pi" textColor="neutral600">
              {t('webhooks.filter.fields')}:
            </Typography>
            {fields.slice(0, MAX_SUGGESTIONS).map((field, index) => (
              <Button
                key={field.path}
                size="S"
                variant="tertiary"
                disabled={parsed.kind === 'invalid'}
                aria-label={t('webhooks.filter.addCondition', { field: field.path })}
                onClick={() => addCondition(index)}
              >
                <span style={{ fontFamily: 'monospace' }}>{field.path}</span>
              </Button>
            ))}
          </Flex>
        )}
        <Box role="status" data-testid="filter-try" minHeight="2rem">
          <TryLine t={t} tried={tried} filtered={filter !== null} named={tryType !== undefined} />
        </Box>
      </Flex>
    </FormModal>
  );
}

function TryLine({ t, tried, filtered, named }: { t: Translate; tried: FilterTry; filtered: boolean; named: boolean }) {
  if (!filtered) return null;
  if (!named) return <Typography textColor="neutral600">{t('webhooks.filter.noType')}</Typography>;
  switch (tried.state) {
    case 'idle':
      return null;
    case 'trying':
      return <Typography textColor="neutral600">{t('webhooks.filter.trying', { type: tried.type })}</Typography>;
    case 'done':
      return tried.matches ? (
        <Typography textColor="success600">{t('webhooks.filter.matches', { type: tried.type })}</Typography>
      ) : (
        <Typography textColor="warning600">{t('webhooks.filter.misses', { type: tried.type })}</Typography>
      );
    case 'refused':
      return tried.problem.code === 'invalid_filter' ? null : (
        <Typography textColor="neutral600">{t('webhooks.filter.untried', { message: tried.problem.message })}</Typography>
      );
  }
}
