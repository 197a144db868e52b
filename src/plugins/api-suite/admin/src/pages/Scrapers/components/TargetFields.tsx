import { Flex, Grid, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import type { ScraperInput, ScraperTarget, TargetType } from '../../../api';
import { FormField } from '../../../components/FormModal';
import { useT } from '../../../utils/useT';

/** The selects' value for "none" (their options need a non-empty value). */
const NONE = '__none__';

/** The target part of the scraper form: which content type, which attribute is the key, which item field fills each attribute. */
export interface TargetState {
  /** '' for no target. */
  type: string;
  key: string;
  /** Attribute → the item field that fills it ('' or absent: not filled). */
  fields: Record<string, string>;
  publish: 'draft' | 'auto';
  removed: 'keep' | 'unpublish' | 'delete';
}

export function targetState(target: ScraperTarget | null | undefined): TargetState {
  return target
    ? { type: target.type, key: target.key, fields: { ...target.fields }, publish: target.publish, removed: target.removed }
    : { type: '', key: '', fields: {}, publish: 'draft', removed: 'keep' };
}

/** The target as the server takes it: null without a type; only the attributes given an item field. */
export function targetInput(state: TargetState): ScraperInput['target'] {
  if (state.type === '') return null;
  const fields = Object.fromEntries(Object.entries(state.fields).filter(([, field]) => field !== ''));
  return { type: state.type, key: state.key, fields, publish: state.publish, removed: state.removed };
}

/**
 * Where a run's items go: a content type of the site, its attributes offered from its schema
 * (those an item can fill), each filled by one of the items' fields (the selectors' fields and
 * `url`). The key finds an item's document run after run. The server checks it all again and
 * shows a fault under the part it names.
 */
export function TargetFields({
  value,
  types,
  itemFields,
  onChange,
}: {
  value: TargetState;
  types: TargetType[];
  itemFields: string[];
  onChange: (next: TargetState) => void;
}) {
  const t = useT();
  const type = types.find((candidate) => candidate.uid === value.type);
  const choose = (uid: string) => {
    const chosen = types.find((candidate) => candidate.uid === uid);
    // A new type: its attributes named like an item field are filled by it, to start from.
    const fields = Object.fromEntries(
      (chosen?.attributes ?? [])
        .filter((attribute) => itemFields.includes(attribute.name))
        .map((attribute) => [attribute.name, attribute.name])
    );
    const key = chosen?.attributes.find((attribute) => attribute.key_allowed && fields[attribute.name])?.name ?? '';
    onChange({ ...value, type: uid, key, fields, removed: chosen?.draft_and_publish ? value.removed : 'keep', publish: 'draft' });
  };

  return (
    <>
      <Grid.Item col={12} direction="column" alignItems="stretch">
        <Flex direction="column" alignItems="stretch" gap={2}>
          <Typography variant="delta" tag="h3">
            {t('scrapers.target.title')}
          </Typography>
          <Typography variant="pi" textColor="neutral600">
            {t('scrapers.target.hint')}
          </Typography>
        </Flex>
      </Grid.Item>
      <FormField col={6} name="target.type" label={t('scrapers.target.type')}>
        <SingleSelect value={value.type === '' ? NONE : value.type} onChange={(uid) => choose(uid === NONE ? '' : String(uid))}>
          <SingleSelectOption value={NONE}>{t('scrapers.target.none')}</SingleSelectOption>
          {types.map((candidate) => (
            <SingleSelectOption key={candidate.uid} value={candidate.uid}>
              {candidate.name}
            </SingleSelectOption>
          ))}
        </SingleSelect>
      </FormField>
      {type && (
        <>
          <FormField col={6} name="target.key" label={t('scrapers.target.key')} hint={t('scrapers.target.keyHint')} required>
            <SingleSelect value={value.key || undefined} onChange={(key) => onChange({ ...value, key: String(key) })}>
              {type.attributes
                .filter((attribute) => attribute.key_allowed)
                .map((attribute) => (
                  <SingleSelectOption key={attribute.name} value={attribute.name}>
                    {attribute.name}
                  </SingleSelectOption>
                ))}
            </SingleSelect>
          </FormField>
          {type.draft_and_publish && (
            <FormField col={6} name="target.publish" label={t('scrapers.target.publish')}>
              <SingleSelect
                value={value.publish}
                onChange={(publish) => onChange({ ...value, publish: publish as TargetState['publish'] })}
              >
                <SingleSelectOption value="draft">{t('scrapers.target.publish.draft')}</SingleSelectOption>
                <SingleSelectOption value="auto">{t('scrapers.target.publish.auto')}</SingleSelectOption>
              </SingleSelect>
            </FormField>
          )}
          <FormField col={6} name="target.removed" label={t('scrapers.target.removed')}>
            <SingleSelect value={value.removed} onChange={(removed) => onChange({ ...value, removed: removed as TargetState['removed'] })}>
              <SingleSelectOption value="keep">{t('scrapers.target.removed.keep')}</SingleSelectOption>
              {type.draft_and_publish && (
                <SingleSelectOption value="unpublish">{t('scrapers.target.removed.unpublish')}</SingleSelectOption>
              )}
              <SingleSelectOption value="delete">{t('scrapers.target.removed.delete')}</SingleSelectOption>
            </SingleSelect>
          </FormField>
          {type.attributes.map((attribute) => (
            <FormField
              key={attribute.name}
              col={4}
              s={6}
              name={`target.fields.${attribute.name}`}
              label={`${attribute.name} (${attribute.type})`}
              required={attribute.required}
            >
              <SingleSelect
                value={value.fields[attribute.name] || NONE}
                onChange={(field) =>
                  onChange({ ...value, fields: { ...value.fields, [attribute.name]: field === NONE ? '' : String(field) } })
                }
              >
                <SingleSelectOption value={NONE}>{t('scrapers.target.notFilled')}</SingleSelectOption>
                {itemFields.map((field) => (
                  <SingleSelectOption key={field} value={field}>
                    {field}
                  </SingleSelectOption>
                ))}
              </SingleSelect>
            </FormField>
          ))}
        </>
      )}
    </>
  );
}
